import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageQueryDto } from '../../common/page-query.dto';
import { OptionalText, RequiredId } from '../../common/validation';
import { REPORT_LIMITS } from '../reports.limits';

const REPORT_ID = 'The report. A reportID from reports/addOne or reports/getList.';

export class CreateReportDto {
  @RequiredId('The interview whose answers to analyse; must exist and be visible to the caller (else 404). An interviewID from interviews/addOne or interviews/getList.')
  interviewID: string;

  @OptionalText({
    description:
      'Left out (or null): the built-in offline analysis. Or the name of an `openai` interviewer agent of INTERVIEWER_AGENTS (interviewers/getList), ' +
      'which then codes the themes; where the model fails, that part is the offline analysis and the result\'s notes say so. Unknown or not openai: 400.',
    example: 'gpt-analyst',
    max: REPORT_LIMITS.analyst,
  })
  analyst?: string | null;
}

export class GetReportQueryDto {
  @RequiredId(REPORT_ID)
  reportID: string;
}

export class ListReportsQueryDto extends PageQueryDto {
  @RequiredId('Return the reports of this interview (404 when unknown or not visible). An interviewID from interviews/addOne or interviews/getList.')
  interviewID: string;
}

export class ShareReportDto {
  @RequiredId(REPORT_ID)
  reportID: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: REPORT_LIMITS.shareDays.min,
    maximum: REPORT_LIMITS.shareDays.max,
    default: REPORT_LIMITS.shareDays.default,
    description: `Days until the link stops working (${REPORT_LIMITS.shareDays.min} to ${REPORT_LIMITS.shareDays.max}).`,
  })
  @IsOptional()
  @Min(REPORT_LIMITS.shareDays.min, { message: `expiresInDays must be from ${REPORT_LIMITS.shareDays.min} to ${REPORT_LIMITS.shareDays.max}` })
  @Max(REPORT_LIMITS.shareDays.max, { message: `expiresInDays must be from ${REPORT_LIMITS.shareDays.min} to ${REPORT_LIMITS.shareDays.max}` })
  // Listed last because class-validator runs decorators bottom-up and stops at the first error.
  @IsInt({ message: 'expiresInDays must be a whole number' })
  expiresInDays?: number;
}

export class UnshareReportDto {
  @RequiredId(REPORT_ID)
  reportID: string;
}
