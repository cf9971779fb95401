import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { LANGUAGE_TAGS } from '../../languages/languages';
import { PageQueryDto } from '../../common/page-query.dto';
import { OptionalQueryInt, OptionalText, RequiredId } from '../../common/validation';
import { INTERVIEW_LIMITS } from '../../domain/interview.limits';
import { REPORT_LIMITS, THEME_ID_PATTERN } from '../reports.limits';

const MAX_THEMES_RULE = `maxThemes must be a whole number from ${REPORT_LIMITS.maxThemes.min} to ${REPORT_LIMITS.maxThemes.max}`;

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

  // No `default` keyword here: some client generators make a property with a default required.
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    nullable: true,
    minimum: REPORT_LIMITS.maxThemes.min,
    maximum: REPORT_LIMITS.maxThemes.max,
    example: 12,
    description:
      `At most this many themes per question (${REPORT_LIMITS.maxThemes.min} to ${REPORT_LIMITS.maxThemes.max}). Left out or null: ${REPORT_LIMITS.maxThemes.default}. ` +
      'The number of themes follows the answers, up to this; with a codebook, its themes always stay and emerging themes fill what is left.',
  })
  @IsOptional()
  @Min(REPORT_LIMITS.maxThemes.min, { message: MAX_THEMES_RULE })
  @Max(REPORT_LIMITS.maxThemes.max, { message: MAX_THEMES_RULE })
  // Listed last because class-validator runs decorators bottom-up and stops at the first error.
  @IsInt({ message: MAX_THEMES_RULE })
  maxThemes?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    enum: LANGUAGE_TAGS,
    example: 'en',
    description:
      'With an analyst: the language of the report (left out or null: en). Answers in other languages are translated into it for coding, every ' +
      'theme and description is written in it, and every quote keeps its verbatim original `text` with the model\'s `translation` beside it ' +
      '(null when the answer is already in it). The offline analysis cannot translate: it finds themes within each language whatever this says.',
  })
  @IsOptional()
  @IsString({ message: 'language must be a string' })
  @IsIn(LANGUAGE_TAGS, { message: `language must be one of ${LANGUAGE_TAGS.join(', ')}` })
  language?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    example: false,
    description:
      'true: the answers of invites whose quality is flagged are read too. Left out, null or false: they are left out of the analysis (and counted in ' +
      'result.invites.flagged; invites.total still counts every invite).',
  })
  @IsOptional()
  @IsBoolean({ message: 'includeFlagged must be true or false' })
  includeFlagged?: boolean | null;
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

export class GetCodesQueryDto extends PageQueryDto {
  @RequiredId(`The report whose codes to return (completed; 404 when unknown or its interview is not visible). ${REPORT_ID}`)
  reportID: string;

  @OptionalQueryInt('Only the answers to this question (0-based, as interviews/getQuestions lists them).', INTERVIEW_LIMITS.guidelines, 0)
  questionIndex?: number;

  @ApiPropertyOptional({
    maxLength: REPORT_LIMITS.themeId,
    pattern: THEME_ID_PATTERN.source,
    description: "Only the answers coded with this theme of a question (a themeID of the report's questions[].themes, e.g. q1-t2 or q1-c1).",
  })
  @IsOptional()
  @IsString({ message: 'themeID must be a string, given once' })
  @MaxLength(REPORT_LIMITS.themeId, { message: 'themeID must be a themeID of the report, like q1-t2, qx-t1 or q1-c3' })
  @Matches(THEME_ID_PATTERN, { message: 'themeID must be a themeID of the report, like q1-t2, qx-t1 or q1-c3' })
  themeID?: string;
}

export class ToCodebookDto {
  @RequiredId(`The completed report whose themes become its interview's codebook. ${REPORT_ID}`)
  reportID: string;
}
