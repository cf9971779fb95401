import { PageQueryDto } from '../../common/pagination';
import { OptionalId, RequiredId } from '../../common/validation';
import { OWNER_MAX } from './create-product.dto';

export class GetProductQueryDto {
  @RequiredId('The product to return.', '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b')
  productID: string;
}

export class ListProductsQueryDto extends PageQueryDto {
  @OptionalId('Return products of this user. At least one of userID and orgID is required; both combine with AND.', 'user_42', OWNER_MAX)
  userID?: string;

  @OptionalId('Return products of this organization. At least one of userID and orgID is required; both combine with AND.', 'org_acme', OWNER_MAX)
  orgID?: string;
}
