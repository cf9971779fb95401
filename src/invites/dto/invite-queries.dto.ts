import { COMMON_LIMITS } from '../../common/limits';
import { PageQueryDto } from '../../common/page-query.dto';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsInt, Max, Min, MinLength } from 'class-validator';
import { OptionalId, OptionalQueryInt, OptionalText, QueryInt, RequiredId } from '../../common/validation';
import { INVITE_LIMITS } from '../../domain/invite.limits';

export class CreateInvitesQueryDto {
  @RequiredId('The interview the invites are for (404 when unknown or not visible). An interviewID from interviews/addOne or interviews/getList.')
  interviewID: string;

  @QueryInt('How many invite links to create: 1 to MAX_INVITES_PER_REQUEST (default 1000).', 10, INVITE_LIMITS.perRequestCeiling)
  count: number;

  @OptionalId("The product the invites are for; when given it must be the interview's product (else 400).")
  productID?: string;

  @OptionalId(
    "The organization creating the invites; defaults to the product's organization. A scoped token may only name its own organization (else 403).",
    COMMON_LIMITS.ownerId,
  )
  orgID?: string;

  @OptionalQueryInt(
    `Days until the links expire (1 to ${INVITE_LIMITS.expiresInDaysMax}); INVITE_TTL_DAYS (default 30) when absent. A pending or started invite past its expires_on is expired.`,
    INVITE_LIMITS.expiresInDaysMax,
  )
  expiresInDays?: number;

  @OptionalText({ description: `A segment for all the invites (1 to ${INVITE_LIMITS.segment} characters, e.g. churned): invites/getList and reports group by it.`, max: INVITE_LIMITS.segment })
  @MinLength(1, { message: `$property must be 1 to ${INVITE_LIMITS.segment} characters long` })
  segment?: string;
}

export class GetInviteQueryDto {
  @RequiredId('The invite to return. A linkID: the last path segment of a URL from invites/createInvites, or from invites/getList.')
  linkID: string;
}

export class ListInvitesQueryDto extends PageQueryDto {
  @OptionalId('Return invites of this interview. At least one of interviewID and productID is required; both combine with AND.')
  interviewID?: string;

  @OptionalId('Return invites of this product. At least one of interviewID and productID is required; both combine with AND.')
  productID?: string;

  @OptionalText({ description: 'Return only invites of this segment (exactly as stored: createInvites\' segment, or the screener\'s chosen options); combines with AND.', max: INVITE_LIMITS.segment })
  @MinLength(1, { message: `$property must be 1 to ${INVITE_LIMITS.segment} characters long` })
  segment?: string;
}

export class RevokeInviteDto {
  @RequiredId('The invite to revoke. A linkID: the last path segment of a URL from invites/createInvites, or from invites/getList.')
  linkID: string;
}

/** A 0-based index into an invite's conversation, from the query string. */
function TurnIndex(description: string): PropertyDecorator {
  const max = INVITE_LIMITS.turns - 1;
  return applyDecorators(
    ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: max, example: 2, description }),
    Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value)),
    IsDefined({ message: '$property is required' }),
    // Applied in this order, and checked in it (stopping at the first error): a whole number first.
    IsInt({ message: '$property must be a whole number' }),
    Min(0, { message: `$property must be from 0 to ${max}` }),
    Max(max, { message: `$property must be from 0 to ${max}` }),
  );
}

export class GetAudioQueryDto {
  @RequiredId('The invite whose recording to return. A linkID from invites/getList or interviews/getAnswers.')
  linkID: string;

  @TurnIndex("The answer's index in the invite's conversation (`turnIndex` of interviews/getAnswers): an interviewee turn answered by voice.")
  turnIndex: number;
}
