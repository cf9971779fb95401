import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { ConversationTurnDto } from '../../invites/dto/invite.dto';
import { INTERVIEW_LIMITS } from '../../domain/interview.limits';
import { INVITE_STATUSES, InviteStatus } from '../../domain/invite-status';
import { INVITE_LIMITS } from '../../domain/invite.limits';
import { PRODUCT_LIMITS } from '../../products/product.limits';
import { LANGUAGE_TAGS } from '../../languages/languages';
import { QUESTIONS_SPOKEN_BY, QuestionsSpokenBy } from '../../voice/dto/mode.dto';
import { INTERVIEW_MODES, InterviewMode } from '../../voice/voice.limits';

/** How far the built-in interviewer is through its questions. */
export interface ProgressDto {
  asked: number;
  total: number;
}

/** An object or null, inline rather than a $ref: OpenAPI 3.0 cannot make a $ref nullable (see invite.dto.ts). */
const progressSchema = (description: string): ApiPropertyOptions => ({
  type: 'object',
  nullable: true,
  description,
  selfRequired: true,
  required: ['asked', 'total'],
  properties: {
    asked: { type: 'integer', format: 'int32', minimum: 0, maximum: INTERVIEW_LIMITS.guidelines, example: 2, description: 'Questions asked so far: 0 before the start, 1 after the opening, total once past the last.' },
    total: { type: 'integer', format: 'int32', minimum: 1, maximum: INTERVIEW_LIMITS.guidelines, example: 5, description: 'The questions the interview asks (GET /v1/interviews/getQuestions).' },
  },
});

/** A language the interviewee may choose before the start. */
export class LanguageChoiceDto {
  @ApiProperty({ enum: LANGUAGE_TAGS, example: 'de', description: 'The tag to send as `language` to POST /i/{linkID}/start (or as ?lang= on the link).' })
  language: string;

  @ApiProperty({ maxLength: 40, example: 'Deutsch', description: "The language's own name, as a person choosing it looks for it." })
  name: string;
}

/** What the interviewee's page (or a team's own front end) knows of an interview: nothing of the team. */
export class SessionDto {
  @ApiProperty({ enum: INVITE_STATUSES, example: 'started', description: 'pending: show the consent and the form; started: the conversation; completed, abandoned or expired: nothing more to do.' })
  status: InviteStatus;

  @ApiProperty({ maxLength: INTERVIEW_LIMITS.publicTitle, example: 'Tell us about your first week', description: "The interview's publicTitle, or its name when it has none." })
  publicTitle: string;

  @ApiProperty({
    enum: LANGUAGE_TAGS,
    example: 'ja',
    description: "The room's language: the interview's; with `auto`, before the start the best match of `?lang=`, then Accept-Language, else en; from the start the one recorded with the invite.",
  })
  language: string;

  @ApiProperty({ enum: ['ltr', 'rtl'], example: 'ltr', description: 'Writing direction of `language`.' })
  direction: 'ltr' | 'rtl';

  @ApiProperty({
    type: [LanguageChoiceDto],
    maxItems: LANGUAGE_TAGS.length,
    description:
      'Before the start of an `auto` interview whose guidelines are translated: the languages the interviewee may choose (the base language and those ' +
      'with a translation), each asked the questions in it; the page lists them and `start` records the one shown. Otherwise empty.',
  })
  languages: LanguageChoiceDto[];

  @ApiProperty(progressSchema('The built-in interviewer\'s progress through its questions ("Question 2 of 5"); null for other agents.'))
  progress: ProgressDto | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uri',
    maxLength: INTERVIEW_LIMITS.completionRedirectUrl + 20,
    example: 'https://panel.example/complete?pid=4711&status=completed',
    description: 'Once the interview is completed or abandoned: where to send the interviewee (the interview\'s completionRedirectUrl with status= added); otherwise null.',
  })
  redirectUrl: string | null;

  @ApiProperty({
    enum: INTERVIEW_MODES,
    example: 'voice',
    description:
      '`voice`: the interviewee may answer by speaking (POST /i/{linkID}/audio) or by typing; `text`: by typing. A voice interview is held in text while the ' +
      'service has no transcriber.',
  })
  mode: InterviewMode;

  @ApiProperty({
    ...QUESTIONS_SPOKEN_BY,
    description:
      'In a voice interview, how interviewer turns are spoken: `server` (audio from GET /i/{linkID}/speech/{turnIndex}) or `browser` (the browser\'s own ' +
      'speech synthesis). null in a text interview.',
  })
  questionsSpokenBy: QuestionsSpokenBy;

  @ApiProperty({ type: Boolean, example: false, description: 'In a voice interview: whether the recordings of the answers are kept with them for the research team (the page says so before the start).' })
  keepAudio: boolean;

  @ApiProperty({ maxLength: PRODUCT_LIMITS.name, example: 'Acme Notes' })
  productName: string;

  @ApiProperty({ type: String, nullable: true, format: 'uri', maxLength: COMMON_LIMITS.url, example: 'https://acme.example/notes.png' })
  productImage: string | null;

  @ApiProperty({ maxLength: INTERVIEW_LIMITS.consentText, description: "What the interviewee agrees to by starting: the interview's consentText, else CONSENT_TEXT, else the default in `language`." })
  consentText: string;

  @ApiProperty({ type: [ConversationTurnDto], maxItems: INVITE_LIMITS.turns, description: 'The transcript so far, oldest first; the first turn of a started interview records the consent. Empty once the interview is over (completed, abandoned, expired): a link that leaks later shows nothing of it.' })
  conversation: ConversationTurnDto[];

  @ApiProperty({ format: 'date-time', maxLength: 30, example: '2026-12-21T12:04:05.123Z', description: 'When the link stops working.' })
  expires_on: string;
}

export class ReplyResultDto {
  @ApiProperty({ enum: ['started', 'completed'], example: 'started', description: 'completed when this was the interviewer\'s last turn.' })
  status: 'started' | 'completed';

  @ApiProperty({ type: [ConversationTurnDto], minItems: 2, maxItems: 2, description: 'The two new turns: the answer as stored, then the interviewer\'s.' })
  turns: ConversationTurnDto[];

  @ApiProperty(progressSchema('The progress after this turn (see the session); null for agents other than the built-in one.'))
  progress: ProgressDto | null;

  @ApiProperty({ type: String, nullable: true, format: 'uri', maxLength: INTERVIEW_LIMITS.completionRedirectUrl + 20, example: null, description: 'When this turn completed the interview: where to send the interviewee (see the session); otherwise null.' })
  redirectUrl: string | null;
}
