import { ApiProperty } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { INTERVIEW_LANGUAGES } from '../../languages/languages';
import { INTERVIEW_MODES, InterviewMode } from '../../voice/voice.limits';
import { INTERVIEW_LIMITS } from '../../domain/interview.limits';

export class InterviewDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;

  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;

  @ApiProperty({ maxLength: INTERVIEW_LIMITS.name, example: 'Onboarding friction, Q4' })
  interviewName: string;

  @ApiProperty({ type: String, nullable: true, maxLength: INTERVIEW_LIMITS.guidelines, example: 'Goal: onboarding friction (a note: not asked)\n1. How did you first hear about the product?\n2. What almost made you give up?', description: 'Only lines ending with a question mark are asked; the rest are notes for the team.' })
  guidelines: string | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    // Keys are language tags (as on addOne), listed here as a map rather than as optional properties: a response's properties are all always present.
    additionalProperties: { type: 'string', maxLength: INTERVIEW_LIMITS.translation },
    example: { de: '1. Wie haben Sie zum ersten Mal von Acme Notes gehört?\n2. Was hätte Sie in der ersten Woche fast aufgeben lassen?' },
    description: 'The guidelines in other languages, by tag, each with as many questions as guidelines (question k is question k); null: none.',
  })
  translations: Record<string, string> | null;

  @ApiProperty({ type: String, nullable: true, maxLength: COMMON_LIMITS.ownerId, example: 'user_42' })
  userID: string | null;

  @ApiProperty({ maxLength: INTERVIEW_LIMITS.interviewer, example: 'default', description: 'Interviewer agent; the service default (DEFAULT_INTERVIEWER) unless set.' })
  interviewer: string;

  @ApiProperty({ enum: INTERVIEW_LANGUAGES, example: 'auto', description: '`auto`: each invite in its interviewee\'s language (?lang=, then Accept-Language, else English); or the one language of every invite.' })
  language: string;

  @ApiProperty({ type: String, nullable: true, maxLength: INTERVIEW_LIMITS.publicTitle, example: 'Tell us about your first week', description: 'The title interviewees see; null: interviewName.' })
  publicTitle: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: INTERVIEW_LIMITS.consentText, example: null, description: 'This interview\'s consent text; null: the service\'s (CONSENT_TEXT, or its default in the room\'s language).' })
  consentText: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uri', pattern: '^https://', maxLength: INTERVIEW_LIMITS.completionRedirectUrl, example: 'https://panel.example/complete?pid=4711', description: 'Where the room sends the interviewee at the end, with status=completed|abandoned added.' })
  completionRedirectUrl: string | null;
  @ApiProperty({ type: 'integer', format: 'int32', nullable: true, minimum: INTERVIEW_LIMITS.retentionDays.min, maximum: INTERVIEW_LIMITS.retentionDays.max, example: null, description: "Days a finished invite is kept before its interviewee's data is erased; null: RETENTION_DAYS." })
  retentionDays: number | null;

  @ApiProperty({ type: Boolean, example: false, description: 'Whether identifiers in answers are redacted before they are stored.' })
  redactPII: boolean;

  @ApiProperty({ enum: INTERVIEW_MODES, example: 'text', description: '`text` (typed answers; the default) or `voice` (spoken answers, transcribed; typing stays possible).' })
  mode: InterviewMode;

  @ApiProperty({ type: Boolean, example: false, description: 'Whether the recordings of a voice interview are kept with their invites (GET /v1/invites/getAudio); default false.' })
  keepAudio: boolean;
}

export class InterviewIdResultDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;
}

export class InterviewUpdatedDto extends InterviewIdResultDto {
  @ApiProperty({ example: 'updated', enum: ['updated'] })
  status: 'updated';
}

/** A question's index in an interview (0-based), as every resource that refers to one shows it. */
export const QUESTION_INDEX = { type: 'integer' as const, format: 'int32', minimum: 0, maximum: INTERVIEW_LIMITS.guidelines };
/** The same where an answer may be attributed to no question (null). */
export const QUESTION_INDEX_OR_NULL = { type: 'integer' as const, format: 'int32', nullable: true, minimum: 0, maximum: INTERVIEW_LIMITS.guidelines };

/** A question the built-in interviewer asks: the guidelines' questions, or its general set when they hold none. */
export class QuestionDto {
  @ApiProperty({ ...QUESTION_INDEX, example: 1, description: '0-based; answers and reports refer to questions by it.' })
  questionIndex: number;

  @ApiProperty({ maxLength: INTERVIEW_LIMITS.guidelines, example: 'What almost made you give up?', description: 'As the interviewer asks it: the guideline line without its list markers.' })
  question: string;
}
