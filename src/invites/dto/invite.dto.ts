import { ApiProperty } from '@nestjs/swagger';
import { CONVERSATION_ROLES, INVITE_STATUSES, InviteStatus, MAX_TRANSCRIPT_BYTES, MAX_TURNS } from '../invite-status';

export class UserInfoDto {
  @ApiProperty({ type: String, nullable: true, maxLength: 320, example: 'ada@example.com' })
  email: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 320, example: 'Ada Lovelace' })
  name: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 320, example: 'Analyst' })
  occupation: string | null;
}

export class ConversationTurnDto {
  @ApiProperty({ enum: CONVERSATION_ROLES, example: 'interviewer' })
  role: string;

  @ApiProperty({ maxLength: MAX_TRANSCRIPT_BYTES, example: 'What made you try the product?' })
  content: string;
}

export class InviteDto {
  @ApiProperty({ maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', example: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4', description: 'The secret in the invite URL: 192 random bits, base64url.' })
  linkID: string;

  @ApiProperty({ maxLength: 36, format: 'uuid', example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;

  @ApiProperty({ maxLength: 36, format: 'uuid', example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;

  @ApiProperty({ type: String, nullable: true, maxLength: 100, example: 'org_acme', description: 'Organization that created the invite.' })
  orgID: string | null;

  @ApiProperty({ type: UserInfoDto, nullable: true, description: 'Null until the invited person is known.' })
  userInfo: UserInfoDto | null;

  @ApiProperty({
    enum: INVITE_STATUSES,
    example: 'pending',
    description: 'pending (link made) → started → completed; pending or started → expired. No other transition.',
  })
  status: InviteStatus;

  @ApiProperty({ format: 'date-time', maxLength: 30, example: '2026-11-21T12:04:05.123Z', description: 'Creation time, ISO-8601 UTC.' })
  timestamp: string;

  @ApiProperty({ type: String, format: 'date-time', maxLength: 30, nullable: true, example: null, description: 'Set when the invite is completed.' })
  completed_on: string | null;

  @ApiProperty({ type: [ConversationTurnDto], maxItems: MAX_TURNS, description: 'Transcript turns in order; [] for a new invite.' })
  conversation: ConversationTurnDto[];
}
