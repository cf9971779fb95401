import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/page-query.dto';
import { OptionalId, OptionalQueryInt, RequiredId } from '../../common/validation';
import { INTERVIEW_LIMITS } from '../../domain/interview.limits';

const INTERVIEW_ID = 'The interview whose answers to return (404 when unknown or not visible). An interviewID from interviews/addOne or interviews/getList.';

export class GetAnswersQueryDto extends PageQueryDto {
  @RequiredId(INTERVIEW_ID)
  interviewID: string;

  @OptionalQueryInt('Only the answers to this question (0-based, as interviews/getQuestions lists them).', INTERVIEW_LIMITS.guidelines, 0)
  questionIndex?: number;
}

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export class ExportAnswersQueryDto {
  @RequiredId(INTERVIEW_ID)
  interviewID: string;

  @ApiPropertyOptional({
    enum: EXPORT_FORMATS,
    default: 'csv',
    description: 'csv: RFC 4180 with a header row, UTF-8 with a byte-order mark (spreadsheet programs read it as UTF-8). jsonl: JSON Lines, one answer per line.',
  })
  @IsOptional()
  @IsIn(EXPORT_FORMATS, { message: `format must be one of ${EXPORT_FORMATS.join(', ')}` })
  format?: ExportFormat;

  @OptionalId(
    "A completed report of this interview (reports/getList): every row then gains themes, the labels of the answer's themes in that report " +
      '("; "-separated in CSV, an array in JSON Lines; [] when it fell in other, null for an answer the report did not read). ' +
      'A report of another interview, unknown or not visible: 404; not completed: 409.',
  )
  reportID?: string;
}
