import { ApiProperty } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { ConversationTurnDto } from '../../invites/dto/invite.dto';
import { INTERVIEW_LIMITS } from '../../interviews/interview.limits';
import { INVITE_STATUSES, InviteStatus } from '../../invites/invite-status';
import { INVITE_LIMITS } from '../../invites/invite.limits';
import { PRODUCT_LIMITS } from '../../products/product.limits';

/** What the interviewee's page (or a team's own front end) knows of an interview: nothing of the team. */
export class SessionDto {
  @ApiProperty({ enum: INVITE_STATUSES, example: 'started', description: 'pending: show the consent and the form; started: the conversation; completed, abandoned or expired: nothing more to do.' })
  status: InviteStatus;

  @ApiProperty({ maxLength: INTERVIEW_LIMITS.name, example: 'Onboarding friction, Q4' })
  interviewName: string;

  @ApiProperty({ maxLength: PRODUCT_LIMITS.name, example: 'Acme Notes' })
  productName: string;

  @ApiProperty({ type: String, nullable: true, format: 'uri', maxLength: COMMON_LIMITS.url, example: 'https://acme.example/notes.png' })
  productImage: string | null;

  @ApiProperty({ maxLength: 2000, description: 'What the interviewee agrees to by starting (CONSENT_TEXT).' })
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
}
