import { COMMON_LIMITS } from '../../common/limits';
import { PageQueryDto } from '../../common/page-query.dto';
import { OptionalId, RequiredId } from '../../common/validation';

export class GetProductQueryDto {
  @RequiredId('The product to return. A productID from products/addOne or products/getList.')
  productID: string;
}

export class ListProductsQueryDto extends PageQueryDto {
  @OptionalId('Return products of this user. At least one of userID and orgID is required; both combine with AND.', COMMON_LIMITS.ownerId)
  userID?: string;

  @OptionalId('Return products of this organization. At least one of userID and orgID is required; both combine with AND.', COMMON_LIMITS.ownerId)
  orgID?: string;
}
