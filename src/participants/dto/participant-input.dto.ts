import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, MaxLength } from 'class-validator';
import { COMMON_LIMITS } from '../../common/limits';
import { PageQueryDto } from '../../common/page-query.dto';
import { OptionalId, OptionalOwnerId, TrimmedEmailAddress } from '../../common/validation';
import { PARTICIPANT_LIMITS } from '../participants.limits';

const OWNER =
  'Exactly one of orgID and userID names the owner whose copies are meant: the organization (invites made for it), or the user (invites without an ' +
  "organization, of that user's products), as profiles are kept. A scoped token may only name its own organization or user (else 403).";

/** Whose data about which person: the body of participants/erase and participants/export. */
export class PersonDto {
  @ApiProperty({
    type: String,
    format: 'email',
    maxLength: PARTICIPANT_LIMITS.email,
    example: 'ada@example.com',
    description: "The person's address, as they gave it in the interview room; compared trimmed and case-insensitively. Sent in the body so it never appears in a URL.",
  })
  @IsDefined({ message: 'email is required' })
  @MaxLength(PARTICIPANT_LIMITS.email, { message: `email must be at most ${PARTICIPANT_LIMITS.email} characters long` })
  @TrimmedEmailAddress()
  email: string;

  @OptionalOwnerId(`The owning organization. ${OWNER}`, 'org_acme')
  orgID?: string | null;

  @OptionalOwnerId(`The owning user. ${OWNER}`, 'user_42')
  userID?: string | null;
}

export class ListErasuresQueryDto extends PageQueryDto {
  @OptionalId('Return erasures within this organization. At least one of orgID and userID is required; both combine with AND.', COMMON_LIMITS.ownerId)
  orgID?: string;

  @OptionalId('Return erasures within this user. At least one of orgID and userID is required; both combine with AND.', COMMON_LIMITS.ownerId)
  userID?: string;
}
