import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { COMMON_LIMITS } from '../../common/limits';
import { IsCleanText, OptionalText, RequiredId, RequiredText } from '../../common/validation';
import { INTERVIEW_LIMITS } from '../../domain/interview.limits';
import { QUESTION_INDEX } from '../../interviews/dto/interview.dto';
import type { CodebookQuestion, CodebookTheme } from '../codebook.types';
import { CODEBOOK_LIMITS } from '../codebook.limits';

const INTERVIEW_ID = 'An interviewID from interviews/addOne or interviews/getList (404 when unknown or not visible).';
const EXAMPLES_RULE = `examples must be a list of at most ${CODEBOOK_LIMITS.examples} texts of 1 to ${CODEBOOK_LIMITS.example} characters`;

export class CodebookThemeDto {
  @RequiredText({ description: 'The theme\'s label, kept as written in every report that codes against it.', example: 'Price too high', max: CODEBOOK_LIMITS.theme, notBlank: true })
  theme: string;

  @OptionalText({ description: 'What belongs in the theme, in the team\'s words (a model analyst reads it; reports show it).', example: 'Answers that find the subscription too expensive for what it gives.', max: CODEBOOK_LIMITS.description })
  description?: string | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: CODEBOOK_LIMITS.example },
    maxItems: CODEBOOK_LIMITS.examples,
    description: 'Answers (or parts of them) that belong in the theme: a model analyst is shown them. Left out: none.',
    example: ['The price is way too high for two people.'],
  })
  @IsOptional()
  @IsCleanText({ each: true })
  @Length(1, CODEBOOK_LIMITS.example, { each: true, message: EXAMPLES_RULE })
  @IsString({ each: true, message: EXAMPLES_RULE })
  @ArrayMaxSize(CODEBOOK_LIMITS.examples, { message: EXAMPLES_RULE })
  // Listed last because class-validator runs decorators bottom-up and stops at the first error.
  @IsArray({ message: EXAMPLES_RULE })
  examples?: string[] | null;
}

export class CodebookQuestionDto {
  @ApiProperty({ ...QUESTION_INDEX, example: 1, description: 'The question, 0-based, as interviews/getQuestions lists it (another index: 400).' })
  @IsDefined({ message: '$property is required' })
  @Min(0, { message: `$property must be from 0 to ${INTERVIEW_LIMITS.guidelines}` })
  @Max(INTERVIEW_LIMITS.guidelines, { message: `$property must be from 0 to ${INTERVIEW_LIMITS.guidelines}` })
  @IsInt({ message: '$property must be a whole number' })
  questionIndex: number;

  @ApiProperty({ type: [CodebookThemeDto], maxItems: CODEBOOK_LIMITS.themes, description: `Its themes, in the order reports show them (q<k>-c1, q<k>-c2, …), at most ${CODEBOOK_LIMITS.themes}.` })
  @IsDefined({ message: '$property is required' })
  @ValidateNested({ each: true })
  @Type(() => CodebookThemeDto)
  @ArrayMaxSize(CODEBOOK_LIMITS.themes, { message: `$property must hold at most ${CODEBOOK_LIMITS.themes} themes` })
  @IsArray({ message: '$property must be a list of themes' })
  themes: CodebookThemeDto[];
}

export class SetCodebookDto {
  @RequiredId(`The interview whose codebook to set. ${INTERVIEW_ID}`)
  interviewID: string;

  @ApiProperty({
    type: [CodebookQuestionDto],
    maxItems: CODEBOOK_LIMITS.questions,
    description: 'The questions with themes, each questionIndex once. Replaces the whole codebook: a question left out has none; [] clears it.',
  })
  @IsDefined({ message: '$property is required' })
  @ValidateNested({ each: true })
  @Type(() => CodebookQuestionDto)
  @ArrayMaxSize(CODEBOOK_LIMITS.questions, { message: `$property must hold at most ${CODEBOOK_LIMITS.questions} questions` })
  @IsArray({ message: '$property must be a list of questions' })
  questions: CodebookQuestionDto[];
}

export class GetCodebookQueryDto {
  @RequiredId(`The interview whose codebook to return. ${INTERVIEW_ID}`)
  interviewID: string;
}

/** A codebook theme as the API shows it: every field, null or [] where unset. */
export class CodebookThemeViewDto implements CodebookTheme {
  @ApiProperty({ minLength: 1, maxLength: CODEBOOK_LIMITS.theme, example: 'Price too high' })
  theme: string;

  @ApiProperty({ type: String, nullable: true, maxLength: CODEBOOK_LIMITS.description, example: 'Answers that find the subscription too expensive for what it gives.' })
  description: string | null;

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: CODEBOOK_LIMITS.example }, maxItems: CODEBOOK_LIMITS.examples, example: ['The price is way too high for two people.'] })
  examples: string[];
}

export class CodebookQuestionViewDto implements CodebookQuestion {
  @ApiProperty({ ...QUESTION_INDEX, example: 1 })
  questionIndex: number;

  @ApiProperty({ type: [CodebookThemeViewDto], maxItems: CODEBOOK_LIMITS.themes })
  themes: CodebookThemeViewDto[];
}

export class CodebookDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;

  @ApiProperty({ type: [CodebookQuestionViewDto], maxItems: CODEBOOK_LIMITS.questions, description: 'In questionIndex order; [] when the interview has no codebook.' })
  questions: CodebookQuestionViewDto[];
}

export class CodebookUpdatedDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;

  @ApiProperty({ enum: ['updated'], example: 'updated' })
  status: 'updated';
}
