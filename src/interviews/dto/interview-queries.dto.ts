import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { LANGUAGE_TAGS } from '../../languages/languages';
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

export class GetQuestionsQueryDto extends GetInterviewQueryDto {
  @ApiPropertyOptional({
    enum: LANGUAGE_TAGS,
    description:
      'The questions as an invite held in this language is asked them: the interview\'s translation into it (translations), or the base questions ' +
      'when it has none. Absent: the base questions. A tag that is not supported: 400.',
  })
  @IsOptional()
  @IsString({ message: 'language must be a string' })
  @IsIn(LANGUAGE_TAGS, { message: `language must be one of ${LANGUAGE_TAGS.join(', ')}` })
  language?: string;
}
