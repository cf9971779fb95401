import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { CONVERSATION_ROLES, ConversationRole, INVITE_SOURCES, INVITE_STATUSES, InviteSource, InviteStatus } from '../../domain/invite-status';
import { InviteQuality, QUALITY_FLAGS, ScreenerAnswer } from '../invite-quality';
import { INVITE_LIMITS } from '../../domain/invite.limits';
import type { UserInfo } from '../invite.entity';

const nullableText = (maxLength: number, example: string) => ({ type: 'string' as const, nullable: true, maxLength, example });

/**
 * userInfo is an object or null. Written inline rather than as a $ref: OpenAPI 3.0 has no way to make
 * a $ref nullable (`nullable` beside `allOf` is ignored by standard validators, which then refuse null).
 */
const USER_INFO_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  description: 'Null until the invited person is known.',
  // Always present (null or the object): `required` below lists the object's own fields, so say it of the property here.
  selfRequired: true,
  required: ['email', 'name', 'occupation'],
  properties: {
    email: nullableText(INVITE_LIMITS.email, 'ada@example.com'),
    name: nullableText(INVITE_LIMITS.personName, 'Ada Lovelace'),
    occupation: nullableText(INVITE_LIMITS.occupation, 'Analyst'),
  },
};

export class ConversationTurnDto {
  @ApiProperty({ enum: CONVERSATION_ROLES, example: 'interviewer', description: 'interviewer, interviewee, or system for notes neither of them said (the consent record).' })
  role: ConversationRole;

  @ApiProperty({ maxLength: INVITE_LIMITS.transcriptBytes, example: 'What made you try the product?' })
  content: string;
}

export class ScreenerAnswerDto implements ScreenerAnswer {
  @ApiProperty({ maxLength: 40, example: 'frequency' })
  screenerID: string;

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 20, example: ['Weekly'] })
  options: string[];
}

/** Inline, as userInfo is (a nullable $ref is not understood by standard validators). */
const QUALITY_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  selfRequired: true,
  description: 'Doubts the answers raised (the room\'s typing signals and the answers themselves): null until the first answer.',
  required: ['score', 'flags'],
  properties: {
    score: { type: 'number', minimum: 0, maximum: 1, example: 1, description: '1: no doubt; each flag lowers it.' },
    flags: {
      type: 'array',
      items: { type: 'string', enum: [...QUALITY_FLAGS] },
      maxItems: QUALITY_FLAGS.length,
      example: [],
      description:
        'pasted: most of an answer pasted (or far fewer keystrokes than characters); too_fast: an answer faster than people type; duplicate_answer: an answer of 8+ words ' +
        "equal to another invite's in the interview; low_effort: answers that are not words; duplicate_participant: an e-mail address another invite of the interview used first.",
    },
  },
};

export class InviteDto {
  @ApiProperty({
    maxLength: INVITE_LIMITS.linkId,
    pattern: '^[A-Za-z0-9_-]+$',
    example: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4',
    description: 'The secret in the invite URL: 192 random bits, base64url.',
  })
  linkID: string;

  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;

  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;

  @ApiProperty({ type: String, nullable: true, maxLength: COMMON_LIMITS.ownerId, example: 'org_acme', description: 'Organization that created the invite.' })
  orgID: string | null;

  @ApiProperty(USER_INFO_SCHEMA)
  userInfo: UserInfo | null;

  @ApiProperty({
    enum: INVITE_STATUSES,
    example: 'pending',
    description:
      'pending (link made) → started → completed, or abandoned (ended before any answer); pending or started → expired or revoked. ' +
      'The open link makes screenedout (the screener did not qualify) and overquota (the quota cell or the limit was full) invites; both are terminal.',
  })
  status: InviteStatus;

  @ApiProperty({ format: 'date-time', maxLength: 30, example: '2026-11-21T12:04:05.123Z', description: 'Creation time, ISO-8601 UTC.' })
  timestamp: string;

  @ApiProperty({ type: String, format: 'date-time', maxLength: 30, nullable: true, example: null, description: 'Set when the invite is completed.' })
  completed_on: string | null;

  @ApiProperty({
    format: 'date-time',
    maxLength: 30,
    example: '2026-12-21T12:04:05.123Z',
    description: 'When the link stops working: a pending or started invite past this time is expired.',
  })
  expires_on: string;

  @ApiProperty({ type: [ConversationTurnDto], maxItems: INVITE_LIMITS.turns, description: 'Transcript turns in order; [] for a new invite.' })
  conversation: ConversationTurnDto[];

  @ApiProperty({ enum: INVITE_SOURCES, example: 'link', description: 'link: made by createInvites; open: made by the open link of the interview\'s recruitment (/s/{openID}).' })
  source: InviteSource;

  @ApiProperty({ type: String, nullable: true, maxLength: INVITE_LIMITS.participantID, example: null, description: 'The panel\'s participant id (open link); null otherwise.' })
  participantID: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: INVITE_LIMITS.segment, example: 'churned', description: 'createInvites\' segment, or the screener\'s chosen options `; `-joined in question order; null when none.' })
  segment: string | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'string', maxLength: 500 },
    example: null,
    description: 'The panel\'s passthrough parameters kept with an open link\'s invite, {name: value}; null otherwise.',
  })
  passthrough: Record<string, string> | null;

  @ApiProperty({ type: [ScreenerAnswerDto], nullable: true, maxItems: 10, example: null, description: 'The screener\'s answers (open link); null otherwise.' })
  screener: ScreenerAnswerDto[] | null;

  @ApiProperty(QUALITY_SCHEMA)
  quality: InviteQuality | null;
}

export class InviteRevokedDto {
  @ApiProperty({ maxLength: INVITE_LIMITS.linkId, example: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4' })
  linkID: string;

  @ApiProperty({ enum: ['revoked'], example: 'revoked' })
  status: 'revoked';
}
