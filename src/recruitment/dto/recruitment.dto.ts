import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { COMMON_LIMITS } from '../../common/limits';
import { IsCleanText, IsRedirectUrl, RequiredId, RequiredText } from '../../common/validation';
import { RECRUITMENT_LIMITS } from '../recruitment.limits';

const L = RECRUITMENT_LIMITS;
const INTERVIEW_ID = 'An interviewID from interviews/addOne or interviews/getList (404 when unknown or not visible).';
/** Query parameter names as panels use them (PROLIFIC_PID, RID, psid, study_id). */
const PARAM_NAME = /^[A-Za-z0-9_.-]+$/;
const PARAM_RULE = `must be 1 to ${L.paramName} letters, digits, "_", "." or "-"`;
const REF_ID = /^[A-Za-z0-9_-]+$/;
const REF_RULE = `must be 1 to ${L.id} letters, digits, "_" or "-"`;
const PLACES_RULE = `must be a whole number from 1 to ${L.places}`;
const EXAMPLE_REDIRECT = 'https://app.prolific.com/submissions/complete?cc=C1A2B3C4';

export class ScreenerOptionDto {
  @RequiredText({ description: 'The option as the interviewee sees it; unique within its question. Chosen options make the invite\'s segment.', example: 'Weekly', max: L.option, notBlank: true })
  option: string;

  @ApiProperty({ type: Boolean, example: true, description: 'Whether choosing this option qualifies for the study.' })
  @IsDefined({ message: '$property is required' })
  @IsBoolean({ message: '$property must be true or false' })
  qualifies: boolean;
}

export class ScreenerQuestionDto {
  @ApiProperty({ minLength: 1, maxLength: L.id, pattern: REF_ID.source, example: 'frequency', description: 'Names the question in quotas and in invites\' screener answers; unique.' })
  @IsDefined({ message: '$property is required' })
  @IsString({ message: '$property must be a string' })
  @Length(1, L.id, { message: `$property ${REF_RULE}` })
  @Matches(REF_ID, { message: `$property ${REF_RULE}` })
  screenerID: string;

  @RequiredText({ description: 'The question, shown as written (in the study\'s language) before the consent.', example: 'How often do you order meal kits?', max: L.question, notBlank: true })
  question: string;

  @ApiProperty({ type: Boolean, example: false, description: 'false: one option is chosen; true: any number (at least one). Qualifies when a chosen option qualifies.' })
  @IsDefined({ message: '$property is required' })
  @IsBoolean({ message: '$property must be true or false' })
  multiple: boolean;

  @ApiProperty({ type: [ScreenerOptionDto], minItems: 2, maxItems: L.options, description: `2 to ${L.options} options, in the order shown.` })
  @IsDefined({ message: '$property is required' })
  @ValidateNested({ each: true })
  @Type(() => ScreenerOptionDto)
  @ArrayMaxSize(L.options, { message: `$property must hold 2 to ${L.options} options` })
  @ArrayMinSize(2, { message: `$property must hold 2 to ${L.options} options` })
  @IsArray({ message: `$property must be a list of 2 to ${L.options} options` })
  options: ScreenerOptionDto[];
}

export class QuotaDto {
  @ApiProperty({ minLength: 1, maxLength: L.id, pattern: REF_ID.source, example: 'weekly', description: 'Names the quota; unique.' })
  @IsDefined({ message: '$property is required' })
  @IsString({ message: '$property must be a string' })
  @Length(1, L.id, { message: `$property ${REF_RULE}` })
  @Matches(REF_ID, { message: `$property ${REF_RULE}` })
  quotaID: string;

  @ApiProperty({ minLength: 1, maxLength: L.id, example: 'frequency', description: 'The screener question whose answers make the cell (one of `screener`, else 400).' })
  @IsDefined({ message: '$property is required' })
  @IsString({ message: '$property must be a string' })
  @Length(1, L.id, { message: `$property ${REF_RULE}` })
  screenerID: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: L.option },
    minItems: 1,
    maxItems: L.options,
    example: ['Weekly'],
    description: 'Options of that question (else 400): a person who chose any of them is in the cell.',
  })
  @IsDefined({ message: '$property is required' })
  @IsString({ each: true, message: '$property must be a list of options of the question' })
  @ArrayMaxSize(L.options, { message: `$property must hold 1 to ${L.options} options` })
  @ArrayMinSize(1, { message: `$property must hold 1 to ${L.options} options` })
  @IsArray({ message: `$property must be a list of 1 to ${L.options} options` })
  options: string[];

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: L.places, example: 50, description: 'Places in the cell: its completed invites plus those started and not yet ended.' })
  @IsDefined({ message: '$property is required' })
  @Min(1, { message: `$property ${PLACES_RULE}` })
  @Max(L.places, { message: `$property ${PLACES_RULE}` })
  @IsInt({ message: `$property ${PLACES_RULE}` })
  max: number;
}

/** A redirect: an absolute https URL without credentials, with placeholders. */
function RedirectUrl(outcome: string): PropertyDecorator {
  // Applied, and so checked, in this order: the type, the length, the text, then the URL.
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      // A template, not yet a URI: its {placeholders} are filled in when a person is sent there.
      pattern: '^https://',
      maxLength: COMMON_LIMITS.url,
      example: EXAMPLE_REDIRECT,
      description: `Where ${outcome} goes: https, no user:password@; {pid} and {<passthrough name>} are replaced by the values, URL-encoded. null or absent: none.`,
    }),
    IsOptional(),
    IsString({ message: '$property must be a string' }),
    MaxLength(COMMON_LIMITS.url, { message: `$property must be at most ${COMMON_LIMITS.url} characters long` }),
    IsCleanText(),
    IsRedirectUrl(),
  );
}

export class RedirectsDto {
  @RedirectUrl('a person who completed the interview')
  completed?: string | null;

  @RedirectUrl('a person the screener did not qualify')
  screenout?: string | null;

  @RedirectUrl('a person who arrived when their quota cell or the limit was full')
  overquota?: string | null;

  @RedirectUrl('a person whose invite was flagged by the quality checks (instead of completed)')
  quality?: string | null;

  @RedirectUrl('a person who ended the interview before any answer')
  abandoned?: string | null;
}

export class SetRecruitmentDto {
  @RequiredId(`The interview to recruit for. ${INTERVIEW_ID}`)
  interviewID: string;

  @ApiProperty({ type: Boolean, example: true, description: 'true: the open link makes invites; false: it shows that the study is closed (HTTP 410) and makes none.' })
  @IsDefined({ message: '$property is required' })
  @IsBoolean({ message: '$property must be true or false' })
  open: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: L.paramName, pattern: PARAM_NAME.source, example: 'PROLIFIC_PID', description: 'The query parameter carrying the panel\'s participant id. Default pid.' })
  @IsOptional()
  @IsString({ message: '$property must be a string' })
  @Length(1, L.paramName, { message: `$property ${PARAM_RULE}` })
  @Matches(PARAM_NAME, { message: `$property ${PARAM_RULE}` })
  participantParam?: string | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: L.paramName, pattern: PARAM_NAME.source },
    maxItems: L.passthrough,
    example: ['STUDY_ID', 'SESSION_ID'],
    description: `Up to ${L.passthrough} more query parameters kept with each invite (passthrough) and usable as {name} in redirects.`,
  })
  @IsOptional()
  @Matches(PARAM_NAME, { each: true, message: `passthrough names ${PARAM_RULE}` })
  @Length(1, L.paramName, { each: true, message: `passthrough names ${PARAM_RULE}` })
  @IsString({ each: true, message: `passthrough names ${PARAM_RULE}` })
  @ArrayMaxSize(L.passthrough, { message: `$property must hold at most ${L.passthrough} names` })
  @IsArray({ message: `$property must be a list of at most ${L.passthrough} parameter names` })
  passthrough?: string[] | null;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: L.places, nullable: true, example: 200, description: 'Completes wanted in all (completed plus started and not yet ended, flagged ones included). null or absent: no limit.' })
  @IsOptional()
  @Min(1, { message: `$property ${PLACES_RULE}` })
  @Max(L.places, { message: `$property ${PLACES_RULE}` })
  @IsInt({ message: `$property ${PLACES_RULE}` })
  limit?: number | null;

  @ApiPropertyOptional({ type: [ScreenerQuestionDto], maxItems: L.screenerQuestions, description: `Up to ${L.screenerQuestions} closed questions shown before the consent. Absent: no screener.` })
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => ScreenerQuestionDto)
  @ArrayMaxSize(L.screenerQuestions, { message: `$property must hold at most ${L.screenerQuestions} questions` })
  @IsArray({ message: '$property must be a list of questions' })
  screener?: ScreenerQuestionDto[] | null;

  @ApiPropertyOptional({ type: [QuotaDto], maxItems: L.quotas, description: `Up to ${L.quotas} quota cells over the screener's answers.` })
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => QuotaDto)
  @ArrayMaxSize(L.quotas, { message: `$property must hold at most ${L.quotas} quotas` })
  @IsArray({ message: '$property must be a list of quotas' })
  quotas?: QuotaDto[] | null;

  @ApiPropertyOptional({ type: RedirectsDto, nullable: true, description: 'Where each outcome sends the person; an outcome without one shows its page.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => RedirectsDto)
  @IsObject({ message: '$property must be an object' })
  redirects?: RedirectsDto | null;
}

export class GetRecruitmentQueryDto {
  @RequiredId(`The interview whose recruitment to return. ${INTERVIEW_ID}`)
  interviewID: string;
}

export class ScreenerOptionViewDto {
  @ApiProperty({ maxLength: L.option, example: 'Weekly' })
  option: string;

  @ApiProperty({ type: Boolean, example: true })
  qualifies: boolean;
}

export class ScreenerQuestionViewDto {
  @ApiProperty({ maxLength: L.id, example: 'frequency' })
  screenerID: string;

  @ApiProperty({ maxLength: L.question, example: 'How often do you order meal kits?' })
  question: string;

  @ApiProperty({ type: Boolean, example: false })
  multiple: boolean;

  @ApiProperty({ type: [ScreenerOptionViewDto], maxItems: L.options })
  options: ScreenerOptionViewDto[];
}

export class QuotaViewDto {
  @ApiProperty({ maxLength: L.id, example: 'weekly' })
  quotaID: string;

  @ApiProperty({ maxLength: L.id, example: 'frequency' })
  screenerID: string;

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: L.option }, maxItems: L.options, example: ['Weekly'] })
  options: string[];

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: L.places, example: 50 })
  max: number;
}

const redirectView = { type: String, nullable: true, pattern: '^https://', maxLength: COMMON_LIMITS.url, example: EXAMPLE_REDIRECT, description: 'A template: {pid} and {<passthrough name>} are filled in.' } as const;

export class RedirectsViewDto {
  @ApiProperty(redirectView)
  completed: string | null;

  @ApiProperty(redirectView)
  screenout: string | null;

  @ApiProperty(redirectView)
  overquota: string | null;

  @ApiProperty(redirectView)
  quality: string | null;

  @ApiProperty(redirectView)
  abandoned: string | null;
}

export class RecruitmentDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;

  @ApiProperty({ type: Boolean, example: true })
  open: boolean;

  @ApiProperty({
    format: 'uri',
    maxLength: COMMON_LIMITS.url,
    example: 'https://interviews.example.com/s/Zk3v9x_7mK2pLw8aZr0TbYc1uEfGhJn4',
    description: 'The study link to give the panel (add ?<participantParam>={{the panel\'s id macro}}); the same across updates.',
  })
  openURL: string;

  @ApiProperty({ maxLength: L.paramName, example: 'PROLIFIC_PID' })
  participantParam: string;

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: L.paramName }, maxItems: L.passthrough, example: ['STUDY_ID'] })
  passthrough: string[];

  @ApiProperty({ type: 'integer', format: 'int32', nullable: true, minimum: 1, maximum: L.places, example: 200 })
  limit: number | null;

  @ApiProperty({ type: [ScreenerQuestionViewDto], maxItems: L.screenerQuestions })
  screener: ScreenerQuestionViewDto[];

  @ApiProperty({ type: [QuotaViewDto], maxItems: L.quotas })
  quotas: QuotaViewDto[];

  @ApiProperty({ type: RedirectsViewDto })
  redirects: RedirectsViewDto;
}
