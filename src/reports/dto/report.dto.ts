import { LANGUAGE_TAGS } from '../../languages/languages';
import { ApiExtraModels, ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { INTERVIEW_LIMITS } from '../../domain/interview.limits';
import { QUESTION_INDEX_OR_NULL } from '../../interviews/dto/interview.dto';
import { INVITE_LIMITS } from '../../domain/invite.limits';
import type { InviteCounts, Keyphrase, OtherGroup, QuestionReport, Quote, SentimentSplit, Theme } from '../analysis/analysis.types';
import type { StoredResult } from '../report-codes';
import { REPORT_LIMITS, REPORT_STATUSES, ReportStatus } from '../reports.limits';

/** Counts in a report are bounded by what a database can hold; the schema says so. */
const COUNT = { type: 'integer' as const, format: 'int32', minimum: 0, maximum: 2_147_483_647 };
const TIME = { type: String, format: 'date-time', maxLength: 30 } as const;
const TEXT_MAX = 10_000;
const LIST_MAX = 10_000;

export class QuoteDto implements Quote {
  @ApiProperty({ maxLength: INVITE_LIMITS.linkId, example: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4', description: 'The invite quoted.' })
  linkID: string;

  @ApiProperty({ ...COUNT, maximum: INVITE_LIMITS.turns, example: 4, description: "The interviewee turn quoted: an index into that invite's conversation." })
  turnIndex: number;

  @ApiProperty({ maxLength: INVITE_LIMITS.transcriptBytes, example: 'The import was slow and confusing', description: 'Verbatim: a substring of at least three words of that turn, checked by the server.' })
  text: string;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: INVITE_LIMITS.transcriptBytes,
    example: 'Der Import war langsam und verwirrend',
    description:
      "A model's translation of `text` into the report's language (reports/addOne's language), for reading beside the original; null when the answer is " +
      'in that language already, and in the offline analysis (which cannot translate).',
  })
  translation: string | null;
}

export class KeyphraseDto implements Keyphrase {
  @ApiProperty({ maxLength: 200, example: 'import' })
  phrase: string;

  @ApiProperty({ ...COUNT, example: 12, description: 'Interviewees (distinct invites) whose answers contain it.' })
  answers: number;
}

export class ThemeDto implements Theme {
  @ApiProperty({
    maxLength: REPORT_LIMITS.themeId,
    pattern: '^(q[0-9]+|qx|all)-[tc][0-9]+$',
    example: 'q1-t2',
    description:
      'Stable inside its report: q<questionIndex>-t<n> for a theme of a question (n from 1), qx-t<n> for the unattributed answers, all-t<n> across the ' +
      'interview, q<questionIndex>-c<n> for the codebook\'s themes (n in the codebook\'s order). reports/getCodes filters by it.',
  })
  themeID: string;

  @ApiProperty({
    maxLength: 200,
    example: 'late deliveries',
    description: 'The label. Offline: one phrase of 1–4 words found in the theme\'s answers. A model\'s: its own, at most 80 characters, no digits. A codebook theme\'s: the codebook\'s.',
  })
  theme: string;

  @ApiProperty({
    maxLength: TEXT_MAX,
    example: 'The box came a day late twice and the meat was warm.',
    description: 'Offline: the theme\'s most typical answer excerpt, verbatim (at most 200 characters). A model\'s: its own (at most 300, no digits). A codebook theme\'s: the codebook\'s (may be empty).',
  })
  description: string;

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: 200 }, maxItems: 100, example: ['late delivery', 'warm meat'], description: 'Phrases typical of its answers, most telling first (may be empty).' })
  keyphrases: string[];

  @ApiProperty({ ...COUNT, example: 9, description: 'Interviewees (distinct invites) with an answer coded with it, counted by the server from the codes (never taken from a model).' })
  answers: number;

  @ApiProperty({ ...COUNT, example: 11, description: 'Answers coded with it, counted by the server from the codes.' })
  mentions: number;

  @ApiProperty({ type: [QuoteDto], maxItems: LIST_MAX, description: 'Typical answers of the theme, verbatim.' })
  quotes: QuoteDto[];

  @ApiProperty({ example: false, description: 'True for a theme found beside the codebook\'s themes (the report coded against a codebook and these answers matched none of its themes).' })
  emerging: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: 16,
    example: 'en',
    description: 'The language of its answers (the offline analysis groups answers within one language); null when a model put answers of several languages in it.',
  })
  language: string | null;
}

export class OtherGroupDto implements OtherGroup {
  @ApiProperty({ ...COUNT, example: 2, description: 'Interviewees (distinct invites) with an answer in no theme of the question.' })
  answers: number;

  @ApiProperty({ ...COUNT, example: 3, description: 'Answers in no theme of the question (too short, or unlike any theme).' })
  mentions: number;
}

export class SentimentSplitDto implements SentimentSplit {
  @ApiProperty({ type: Number, nullable: true, minimum: -1, maximum: 1, example: 0.1825, description: 'Mean VADER compound score over the scored answers; null when none was scored.' })
  mean: number | null;

  @ApiProperty({ ...COUNT, example: 3, description: 'Scored answers at -0.05 or below.' })
  negative: number;

  @ApiProperty({ ...COUNT, example: 4, description: 'Scored answers between -0.05 and 0.05.' })
  neutral: number;

  @ApiProperty({ ...COUNT, example: 9, description: 'Scored answers at 0.05 or above.' })
  positive: number;

  @ApiProperty({ ...COUNT, example: 16, description: 'Answers scored (interviews held in English; other languages are not scored).' })
  scored: number;
}

export class QuestionReportDto implements QuestionReport {
  @ApiProperty({
    ...QUESTION_INDEX_OR_NULL,
    example: 1,
    description: 'As interviews/getQuestions lists them; null for the answers attributed to no question (the closing "anything else", unattributed turns).',
  })
  questionIndex: number | null;

  @ApiProperty({ type: String, nullable: true, maxLength: INTERVIEW_LIMITS.guidelines, example: 'What almost made you give up?' })
  question: string | null;

  @ApiProperty({ ...COUNT, example: 16, description: 'Interviewees (distinct invites) with at least one answer to it.' })
  answered: number;

  @ApiProperty({ type: Number, nullable: true, minimum: 0, maximum: INVITE_LIMITS.transcriptBytes, example: 14, description: 'Median words per answer; null without answers.' })
  medianWords: number | null;

  @ApiProperty({ type: SentimentSplitDto })
  sentiment: SentimentSplitDto;

  @ApiProperty({ type: [KeyphraseDto], maxItems: LIST_MAX })
  keyphrases: KeyphraseDto[];

  @ApiProperty({ type: [ThemeDto], maxItems: LIST_MAX, description: 'Groups of similar answers to this question.' })
  themes: ThemeDto[];

  @ApiProperty({ type: [QuoteDto], maxItems: 2, description: 'The most positive scored answer, then the most negative, when there are such answers (quoted at the sentence that carries it).' })
  quotes: QuoteDto[];

  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 1,
    example: 0.9167,
    description: 'Answers coded with some theme ÷ answers to the question (4 decimals); null without answers. The rest are in other.',
  })
  coverage: number | null;

  @ApiProperty({ type: OtherGroupDto, description: 'The answers that fell in no theme of the question (reports/getCodes lists them with themeIDs []).' })
  other: OtherGroupDto;
}

export class InviteCountsDto implements InviteCounts {
  @ApiProperty({ ...COUNT, example: 40 })
  total: number;

  @ApiProperty({ ...COUNT, example: 12 })
  pending: number;

  @ApiProperty({ ...COUNT, example: 3 })
  started: number;

  @ApiProperty({ ...COUNT, example: 20 })
  completed: number;

  @ApiProperty({ ...COUNT, example: 2 })
  abandoned: number;

  @ApiProperty({ ...COUNT, example: 3 })
  expired: number;

  @ApiProperty({ ...COUNT, example: 0 })
  revoked: number;

  @ApiProperty({ ...COUNT, example: 5, description: 'Open link arrivals the screener did not qualify.' })
  screenedout: number;

  @ApiProperty({ ...COUNT, example: 1, description: 'Open link arrivals whose quota cell or the limit was full.' })
  overquota: number;

  @ApiProperty({ ...COUNT, example: 2, description: 'Invites whose quality is flagged: counted in total and in their status, their answers left out of the analysis unless addOne had includeFlagged.' })
  flagged: number;
}

export class SegmentThemeDto {
  @ApiProperty({ maxLength: 20, example: 'q0-t1', description: 'A theme of the result (of a question or across the interview).' })
  themeID: string;

  @ApiProperty({ ...COUNT, example: 4, description: 'Distinct invites of the segment coded with the theme.' })
  answers: number;
}

export class SegmentReportDto {
  @ApiProperty({ maxLength: INVITE_LIMITS.segment, example: 'churned' })
  segment: string;

  @ApiProperty({ ...COUNT, example: 12, description: 'Invites of the segment (at asOf).' })
  invites: number;

  @ApiProperty({ ...COUNT, example: 9, description: 'Of them, completed.' })
  completed: number;

  @ApiProperty({ type: [SegmentThemeDto], maxItems: LIST_MAX, description: 'The themes its invites were coded with, most invites first.' })
  themes: SegmentThemeDto[];
}

/**
 * A report's result, inline because it is nullable (null until the report is completed) and OpenAPI
 * 3.0 cannot make a $ref nullable (see USER_INFO_SCHEMA in invite.dto.ts); its parts are models.
 */
const RESULT_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  selfRequired: true,
  description: 'Once completed; null before, and when failed.',
  required: ['invites', 'completionRate', 'medianDurationSeconds', 'medianAnswerWords', 'sentiment', 'sentimentMethod', 'questions', 'themes', 'segments', 'droppedQuotes', 'notes', 'erased'],
  properties: {
    invites: { allOf: [{ $ref: getSchemaPath(InviteCountsDto) }], description: "The interview's invites by their status at asOf." },
    completionRate: { type: 'number', nullable: true, minimum: 0, maximum: 1, example: 0.7143, description: 'completed ÷ invites ever started (whatever their status now); null when none was.' },
    medianDurationSeconds: { type: 'number', nullable: true, minimum: 0, maximum: 315_360_000, example: 612, description: 'Start to completion, median over completed invites; null when none.' },
    medianAnswerWords: { type: 'number', nullable: true, minimum: 0, maximum: INVITE_LIMITS.transcriptBytes, example: 14, description: 'Median words per answer, all questions; null without answers.' },
    sentiment: { allOf: [{ $ref: getSchemaPath(SentimentSplitDto) }], description: 'Over every answer.' },
    sentimentMethod: { type: 'string', maxLength: 100, example: 'vader', description: 'How answers were scored (see the insights guide for what it can and cannot do).' },
    questions: {
      type: 'array',
      items: { $ref: getSchemaPath(QuestionReportDto) },
      maxItems: LIST_MAX,
      description: 'One per guideline question, in order, then one (questionIndex null) for unattributed answers when there are any.',
    },
    themes: { type: 'array', items: { $ref: getSchemaPath(ThemeDto) }, maxItems: LIST_MAX, description: 'Themes across the whole interview.' },
    segments: {
      type: 'array',
      items: { $ref: getSchemaPath(SegmentReportDto) },
      maxItems: LIST_MAX,
      description: 'Per segment (createInvites\' segment, or the screener\'s chosen options), in segment order; invites without one are in none.',
    },
    droppedQuotes: { ...COUNT, example: 0, description: 'Quotes an analyst model gave that were not verbatim in the cited turn: dropped, never stored.' },
    notes: {
      type: 'array',
      items: { type: 'string', maxLength: TEXT_MAX },
      maxItems: 100,
      example: ['Themes of question 2 are the offline analysis: the model\'s answer was not valid JSON.'],
      description: 'How the result was made, where the reader should know (parts that fell back to the offline analysis, languages without a stop-word list).',
    },
    erased: {
      type: 'object',
      required: ['invites', 'quotes'],
      properties: {
        invites: { ...COUNT, example: 0, description: 'Invites whose interviewees were erased after the report was made.' },
        quotes: { ...COUNT, example: 0, description: 'Quotes taken out with them.' },
      },
      description:
        'What erasures took out of this report since it was made (zeros until one does): their answers, codes and quotes are gone, every figure is counted ' +
        'without them, and any label, description or note that repeated their words was replaced.',
    },
  },
};

export class ReportProgressDto {
  @ApiProperty({ ...COUNT, example: 4200, description: 'Answers analysed so far.' })
  done: number;

  @ApiProperty({ ...COUNT, example: 10_000, description: 'Answers to analyse (0 until the run has counted them).' })
  total: number;
}

@ApiExtraModels(InviteCountsDto, SentimentSplitDto, QuestionReportDto, ThemeDto, OtherGroupDto, SegmentReportDto)
export class ReportDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f' })
  reportID: string;

  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;

  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b', description: "The interview's product." })
  productID: string;

  @ApiProperty({ type: String, nullable: true, maxLength: REPORT_LIMITS.analyst, example: null, description: 'The openai agent that coded the themes; null: the built-in offline analysis.' })
  analyst: string | null;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: REPORT_LIMITS.maxThemes.min,
    maximum: REPORT_LIMITS.maxThemes.max,
    example: 12,
    description: 'At most this many themes per question, as addOne asked.',
  })
  maxThemes: number;

  @ApiProperty({ type: Boolean, example: false, description: 'Whether flagged invites\' answers were read, as addOne asked.' })
  includeFlagged: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: LANGUAGE_TAGS,
    example: 'de',
    description: 'The language addOne asked the analyst to write the report in; null when it asked none (en). The offline analysis does not translate: its themes carry their own language.',
  })
  language: string | null;

  @ApiProperty({ enum: REPORT_STATUSES, example: 'completed', description: 'queued → running → completed | failed. It runs in the background, in any instance of the service.' })
  status: ReportStatus;

  @ApiProperty({ type: ReportProgressDto })
  progress: ReportProgressDto;

  @ApiProperty({ ...TIME, nullable: true, example: '2026-11-23T09:00:00.120Z', description: 'The answers stored up to this time are the report\'s; null until it runs.' })
  asOf: string | null;

  @ApiProperty({ ...TIME, example: '2026-11-23T09:00:00.000Z' })
  created_on: string;

  @ApiProperty({ ...TIME, nullable: true, example: '2026-11-23T09:00:04.731Z', description: 'Set when completed or failed.' })
  completed_on: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: REPORT_LIMITS.error, example: null, description: 'Why it failed, in plain words; null otherwise.' })
  error: string | null;

  @ApiProperty(RESULT_SCHEMA)
  result: StoredResult | null;
}

export class ReportIdResultDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f' })
  reportID: string;
}

export class ReportShareDto {
  @ApiProperty({
    format: 'uri',
    maxLength: COMMON_LIMITS.url + 64,
    example: 'https://irs.acme.example/r/Zx8Qm2VbT1kP7wRcY4nLs9dF0aHjE6uG',
    description: 'The page: SHARE_BASE_URL/{shareID}, where shareID is a 192-bit secret. Anyone with the link can read the report until it expires; no token.',
  })
  url: string;

  @ApiProperty({ ...TIME, example: '2026-11-30T09:00:00.000Z' })
  expires_on: string;
}

export class ReportUnsharedDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f' })
  reportID: string;

  @ApiProperty({ enum: ['unshared'], example: 'unshared' })
  status: 'unshared';

  @ApiProperty({ ...COUNT, example: 2, description: 'Share links ended.' })
  links: number;
}

export class CodeRowDto {
  @ApiProperty({ maxLength: INVITE_LIMITS.linkId, example: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4', description: 'The invite the answer belongs to.' })
  linkID: string;

  @ApiProperty({ ...QUESTION_INDEX_OR_NULL, example: 1, description: 'As getAnswers shows it: the question it answers; null for the unattributed answers.' })
  questionIndex: number | null;

  @ApiProperty({ ...COUNT, maximum: INVITE_LIMITS.turns, example: 4, description: "The answer's turn: an index into that invite's conversation." })
  turnIndex: number;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: REPORT_LIMITS.themeId },
    maxItems: 30,
    example: ['q1-t2'],
    description: "Its themes of its own question, in the order of that question's themes; [] for other (no theme). Themes across the interview are not listed here.",
  })
  themeIDs: string[];

  @ApiProperty({ maxLength: INVITE_LIMITS.transcriptBytes, example: 'The box came a day late twice.', description: 'The answer, exactly as the report read it.' })
  answer: string;
}
