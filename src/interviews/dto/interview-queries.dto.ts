import { PageQueryDto } from '../../common/page-query.dto';
import { RequiredId } from '../../common/validation';

export class GetInterviewQueryDto {
  @RequiredId('The interview to return. An interviewID from interviews/addOne or interviews/getList.')
  interviewID: string;
}

export class ListInterviewsQueryDto extends PageQueryDto {
  @RequiredId('Return interviews of this product (404 when unknown or not visible). A productID from products/addOne or products/getList.')
  productID: string;
}
