import { PageQueryDto } from '../../common/page-query.dto';
import { RequiredId } from '../../common/validation';

export class GetProfileQueryDto {
  @RequiredId('The profile to return. A profileID from profiles/getList.')
  profileID: string;
}

export class ListProfilesQueryDto extends PageQueryDto {
  @RequiredId('Return profiles associated with this product (404 when unknown or not visible). A productID from products/addOne or products/getList.')
  productID: string;
}
