import { COMMON_LIMITS } from '../../common/limits';
import { PageQueryDto } from '../../common/page-query.dto';
import { OptionalId, OptionalQueryInt, QueryInt, RequiredId } from '../../common/validation';
import { INVITE_LIMITS } from '../invite.limits';

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
}

export class RevokeInviteDto {
  @RequiredId('The invite to revoke. A linkID: the last path segment of a URL from invites/createInvites, or from invites/getList.')
  linkID: string;
}
