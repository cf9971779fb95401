import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AUDIO_TYPES, VOICE_LIMITS } from '../voice/voice.limits';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { IdempotencyKey, Idempotent } from '../idempotency/idempotent.decorator';
import { IdempotencyService, IdempotentCall } from '../idempotency/idempotency.service';
import { Paginated } from '../common/paginated';
import { InviteDto, InviteRevokedDto } from './dto/invite.dto';
import { CreateInvitesQueryDto, GetAudioQueryDto, GetInviteQueryDto, ListInvitesQueryDto, RevokeInviteDto } from './dto/invite-queries.dto';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { InvitesService } from './invites.service';

const NOT_FOUND = errorCase(404, 'invite "q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4" not found');
const INTERVIEW_NOT_FOUND = errorCase(404, 'interview "019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90" not found');

@ApiTags('invites')
@ApiBearerAuth()
@Controller('v1/invites')
export class InvitesController {
  constructor(
    private readonly invites: InvitesService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Get('createInvites')
  @Idempotent()
  @ApiOperation({
    summary: 'Create N invite links to an interview (creates records despite being GET)',
    description:
      'Not safe and not idempotent although it is a GET: every call stores `count` new pending invites, all in one transaction (all or none), and returns their URLs ' +
      '(INVITE_BASE_URL + "/" + linkID). Each linkID is a 192-bit random secret. The caller must see the interview (else 404); productID, when given, must be the ' +
      "interview's product (else 400); orgID defaults to the product's organization and a scoped token may only name its own (else 403).",
  })
  @ApiResult(
    { type: 'string', format: 'uri', maxLength: 2200, example: 'http://localhost:3000/i/q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4' },
    { isArray: true, maxItems: INVITE_LIMITS.perRequestCeiling, description: 'The invite URLs, `count` of them' },
  )
  @ApiErrors(400, errorCase(403, 'an invite of another organization would not be visible to this token afterwards; a token may only write within its own organization or user'), INTERVIEW_NOT_FOUND)
  createInvites(@Query() query: CreateInvitesQueryDto, @CurrentPrincipal() principal: Principal, @IdempotencyKey() once: IdempotentCall | undefined) {
    return this.idempotency.run(once, () => this.invites.createInvites(query, principal));
  }

  @Get('getOne')
  @ApiOperation({ summary: 'Return one invite', description: 'Every Invite field; userInfo is null until known; conversation is [] for a new invite. 404 when unknown or not visible.' })
  @ApiResult(InviteDto, { description: 'The invite' })
  @ApiErrors(400, NOT_FOUND)
  getOne(@Query() query: GetInviteQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.invites.getOne(query.linkID, principal);
  }

  @Get('getList')
  @ApiOperation({
    summary: 'Return invites of an interview and/or a product',
    description: 'At least one filter; both combine with AND. 404 when a named interview or product is unknown or not visible. Oldest first, ties by linkID.',
  })
  @Paginated(InviteDto, 'The matching invites, oldest first')
  @ApiErrors(400, INTERVIEW_NOT_FOUND)
  getList(@Query() query: ListInvitesQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.invites.list(query, principal);
  }

  @Get('getAudio')
  @ApiOperation({
    summary: 'Download the recording of a voice answer',
    description:
      'The recording of the answer at `turnIndex` of a voice interview that keeps audio (`keepAudio: true`), as the room received it: its bytes as the ' +
      'body with its own Content-Type (audio/webm, audio/ogg, audio/mp4, audio/mpeg or audio/wav) and Content-Disposition: attachment. Not wrapped in ' +
      '{result}: a binary download, like exportAnswers; errors are the usual JSON. The turnIndex is the answer row\'s (interviews/getAnswers). ' +
      '404 when the invite is unknown or not visible, or no recording is kept for that turn (a typed answer, an interview without keepAudio, ' +
      'or erased: participants/erase, retention and deleteOne erase recordings with the transcript).',
  })
  @ApiResponse({
    status: 200,
    description: 'The recording',
    headers: {
      'Content-Disposition': { description: 'attachment; filename="<linkID>-<turnIndex>.webm" (the extension of its type)', schema: { type: 'string', maxLength: 120 } },
      'Content-Length': { description: 'The recording\'s size in bytes.', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: VOICE_LIMITS.audioBytes } },
    },
    content: Object.fromEntries(AUDIO_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary', maxLength: VOICE_LIMITS.audioBytes } }])),
  })
  @ApiErrors(errorCase(400, 'turnIndex must be from 0 to 99999'), errorCase(404, 'no recording is kept for turn 4 of invite "q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4"'))
  getAudio(@Query() query: GetAudioQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.invites.getAudio(query.linkID, query.turnIndex, principal);
  }

  @Post('revokeOne')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Withdraw an invite link',
    description:
      'pending or started → revoked: the link stops working at once (its page says it is no longer active; the room accepts nothing more) and ' +
      'the event invite.revoked goes to webhooks. The transcript so far stays with the invite. Any other status, or a link already past its ' +
      'expires_on (which is then expired): 409. 404 when unknown or not visible.',
  })
  @ApiBody({ type: RevokeInviteDto, examples: { revoke: { summary: 'Withdraw one link', value: { linkID: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4' } } } })
  @ApiResult(InviteRevokedDto, { description: 'The invite is revoked' })
  @ApiErrors(400, NOT_FOUND, errorCase(409, 'invite is completed; only a pending or started invite can be revoked'), 413, 415)
  revokeOne(@Body() dto: RevokeInviteDto, @CurrentPrincipal() principal: Principal) {
    return this.invites.revoke(dto.linkID, principal);
  }
}
