import { PageQueryDto } from '../../common/page-query.dto';
import { RequiredId } from '../../common/validation';

export class GetInterviewQueryDto {
  @RequiredId('The interview to return.', '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90')
  interviewID: string;
}

export class ListInterviewsQueryDto extends PageQueryDto {
  @RequiredId('Return interviews of this product (404 when unknown or not visible).', '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b')
  productID: string;
}
