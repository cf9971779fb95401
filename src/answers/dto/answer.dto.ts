import { ApiProperty } from '@nestjs/swagger';
import { INVITE_STATUSES, InviteStatus } from '../../domain/invite-status';
import { INVITE_LIMITS } from '../../domain/invite.limits';
import { INTERVIEW_LIMITS } from '../../domain/interview.limits';
import { QUESTION_INDEX_OR_NULL } from '../../interviews/dto/interview.dto';

/** One interviewee answer of an interview. */
export class AnswerDto {
  @ApiProperty({ maxLength: INVITE_LIMITS.linkId, example: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4', description: 'The invite the answer was given in.' })
  linkID: string;

  @ApiProperty({
    ...QUESTION_INDEX_OR_NULL,
    example: 1,
    description: 'The question answered (0-based, as interviews/getQuestions lists them); null for the closing "anything else" and turns the interviewer did not attribute.',
  })
  questionIndex: number | null;

  @ApiProperty({ type: String, nullable: true, maxLength: INTERVIEW_LIMITS.guidelines, example: 'What almost made you give up?', description: 'The question\'s text; null with questionIndex null.' })
  question: string | null;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: INVITE_LIMITS.turns, example: 4, description: "The answer's index in the invite's conversation (invites/getOne)." })
  turnIndex: number;

  @ApiProperty({ maxLength: INVITE_LIMITS.transcriptBytes, example: 'The import, honestly. It took me two evenings to get our data in.', description: 'Exactly as stored.' })
  answer: string;

  @ApiProperty({ example: false, description: 'True for an answer to a follow-up (a probe) rather than to the question itself.' })
  followUp: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, maxLength: 30, example: '2026-11-22T10:12:03.481Z', description: 'When it was given; null where not known (answers stored before times were kept).' })
  at: string | null;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: INVITE_LIMITS.transcriptBytes, example: 13, description: 'Words, counted as the built-in interviewer counts them (characters of scripts without spaces count at typical word lengths).' })
  words: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: -1,
    maximum: 1,
    example: -0.4404,
    description: 'VADER compound score, -1 (negative) to 1 (positive); null where the answer could not be scored (interviews held in a language other than English).',
  })
  sentiment: number | null;

  @ApiProperty({ maxLength: INVITE_LIMITS.language, example: 'en', description: 'The language the interview was held in.' })
  language: string;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: INTERVIEW_LIMITS.translation,
    example: 'What almost made you give up?',
    description:
      'The question as the interviewee was asked it: in the interview\'s language when the interview has a translation into it (translations), else ' +
      'as `question`; for an answer to a probe, the question the probe followed. null with questionIndex null.',
  })
  asked: string | null;
}

/** The export's columns: an answer and its invite. */
export class ExportRowDto extends AnswerDto {
  @ApiProperty({ enum: INVITE_STATUSES, example: 'completed' })
  status: InviteStatus;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, maxLength: 30, example: '2026-11-22T10:01:40.002Z' })
  startedOn: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, maxLength: 30, example: '2026-11-22T10:15:29.870Z' })
  completedOn: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: INVITE_LIMITS.personName, example: 'Ada Lovelace' })
  name: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: INVITE_LIMITS.email, example: 'ada@example.com' })
  email: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: INVITE_LIMITS.occupation, example: 'Analyst' })
  occupation: string | null;
}

export class CodedExportRowDto extends ExportRowDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: 200 },
    maxItems: 30,
    nullable: true,
    example: ['Late deliveries', 'Customer support'],
    description: "The labels of the answer's themes in the report (exportAnswers?reportID=): [] when it fell in other, null when the report did not read it (given after its asOf).",
  })
  themes: string[] | null;
}
