import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, ValidateNested } from 'class-validator';
import { OptionalText, RequiredText } from '../../common/validation';
import { CONVERSATION_ROLES, ConversationRole } from '../../domain/invite-status';
import { INVITE_LIMITS } from '../../domain/invite.limits';

/**
 * Inputs of the invite lifecycle's domain writes (invites are read-only under /v1), validated with the
 * same rules and messages as HTTP bodies (validateInput).
 */
export class UserInfoInput {
  @OptionalText({ description: "The interviewee's email address.", max: INVITE_LIMITS.email })
  email?: string | null;

  @OptionalText({ description: "The interviewee's name.", max: INVITE_LIMITS.personName })
  name?: string | null;

  @OptionalText({ description: "The interviewee's occupation.", max: INVITE_LIMITS.occupation })
  occupation?: string | null;
}

export class TurnInput {
  @IsIn(CONVERSATION_ROLES, { message: `role must be one of ${CONVERSATION_ROLES.join(', ')}` })
  role: ConversationRole;

  @RequiredText({ description: 'What was said.', max: INVITE_LIMITS.transcriptBytes })
  content: string;
}

export class TurnsInput {
  @IsArray()
  @ArrayMaxSize(INVITE_LIMITS.turns)
  @ValidateNested({ each: true })
  @Type(() => TurnInput)
  turns: TurnInput[];
}
