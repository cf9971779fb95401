import { PageQueryDto } from '../../common/page-query.dto';
import { RequiredId } from '../../common/validation';

export class GetProfileQueryDto {
  @RequiredId('The profile to return.', '019a8f90-0a1b-7c2d-8e3f-405162738495')
  profileID: string;
}

export class ListProfilesQueryDto extends PageQueryDto {
  @RequiredId('Return profiles associated with this product (404 when unknown or not visible).', '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b')
  productID: string;
}
