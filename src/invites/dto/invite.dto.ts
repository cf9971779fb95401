import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { CONVERSATION_ROLES, ConversationRole, INVITE_STATUSES, InviteStatus } from '../invite-status';
import { INVITE_LIMITS } from '../invite.limits';
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
    description: 'pending (link made) → started → completed, or abandoned (ended before any answer); pending or started → expired. No other transition.',
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
}

export class InviteRevokedDto {
  @ApiProperty({ maxLength: INVITE_LIMITS.linkId, example: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4' })
  linkID: string;

  @ApiProperty({ enum: ['revoked'], example: 'revoked' })
  status: 'revoked';
}
