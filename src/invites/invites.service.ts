import type { ConfigType } from '@nestjs/config';
import { Injectable, StreamableFile, Inject } from '@nestjs/common';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { MissingOneOfException } from '../common/errors';
import { newUrlSecrets } from '../common/ids';
import { ListAnswer, answerList } from '../common/keyset';
import { InterviewsService } from '../interviews/interviews.service';
import { ProductsService } from '../products/products.service';
import { InviteDto } from './dto/invite.dto';
import { CreateInvitesQueryDto, ListInvitesQueryDto } from './dto/invite-queries.dto';
import { InviteLifecycleService } from './invite-lifecycle.service';
import { invitesConfig } from './invites.config';
import { AudioNotFoundException, InviteCountException, InviteNotFoundException, ProductMismatchException } from './invites.errors';
import { InviteAudioRepository } from './invite-audio.repository';
import { AUDIO_FILE_NAMES, AudioType } from '../voice/voice.limits';
import { type WithStoredJson, stringifyRow } from '../database/stored-json';
import { InviteJsonField, InviteView, InvitesRepository, ListedInvite } from './invites.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Invites per query when a whole list is streamed: each carries its transcript. What a chunk holds
 * (and the next one, read meanwhile) is alive at the young generation's collections and promoted;
 * 100 rather than 500 cut an unpaged list of 20,000 20-turn transcripts from 12-117 MB of RSS growth
 * to 2-14 MB, with the same total time (about 1.0 s) and half the time to first byte (27 -> 13 ms).
 */
const STREAM_CHUNK = 100;

/** An invite as a list shows it: InviteDto with its JSON as stored. */
export type ListedInviteDto = WithStoredJson<InviteDto, InviteJsonField>;

/**
 * An invite as the API shows it; from a list's row, with its JSON as stored, which serializes as the
 * same JSON (StoredJson).
 */
export function inviteDtoOf(r: InviteView): InviteDto;
export function inviteDtoOf(r: ListedInvite): ListedInviteDto;
export function inviteDtoOf(r: InviteView | ListedInvite): InviteDto | ListedInviteDto {
  // One mapping for both rows: the JSON fields pass as the row has them, values or StoredJson.
  return {
    linkID: r.linkID,
    interviewID: r.interviewID,
    productID: r.productID,
    orgID: r.orgID,
    userInfo: r.userInfo,
    status: r.status,
    timestamp: r.createdAt.toISOString(),
    completed_on: r.completedOn === null ? null : r.completedOn.toISOString(),
    expires_on: r.expiresAt.toISOString(),
    conversation: r.conversation,
    source: r.source,
    participantID: r.participantID,
    segment: r.segment,
    passthrough: r.passthrough,
    screener: r.screener,
    quality: r.quality,
  } as InviteDto | ListedInviteDto;
}

@Injectable()
export class InvitesService {
  constructor(
    private readonly invites: InvitesRepository,
    private readonly access: AccessService,
    private readonly interviews: InterviewsService,
    private readonly products: ProductsService,
    @Inject(invitesConfig.KEY) private readonly config: ConfigType<typeof invitesConfig>,
    private readonly lifecycle: InviteLifecycleService,
    private readonly audio: InviteAudioRepository,
  ) {}

  /** The API's createInvites: checks, then `count` new pending invites; answers their URLs. */
  async createInvites(query: CreateInvitesQueryDto, principal: Principal): Promise<string[]> {
    const max = this.config.maxInvitesPerRequest;
    if (query.count < 1 || query.count > max) throw new InviteCountException(max);
    const { interview, owner } = await this.interviews.requireVisible(principal, query.interviewID);
    if (query.productID !== undefined && query.productID !== interview.productID) {
      // A named product the caller cannot see is 404 like any other identifier, before the mismatch (400).
      await this.products.requireVisible(principal, query.productID);
      throw new ProductMismatchException(query.productID, interview.interviewID);
    }
    if (query.orgID !== undefined) this.access.assertOwnOrganization(principal, query.orgID, 'an invite of another organization');
    const target = { interviewID: interview.interviewID, productID: interview.productID, orgID: query.orgID ?? owner.orgID, segment: query.segment ?? null };
    const linkIDs = await this.insertInvites(target, query.count, { expiresInDays: query.expiresInDays });
    return linkIDs.map((linkID) => `${this.config.inviteBaseUrl}/${linkID}`);
  }

  /**
   * The domain operation behind createInvites (also used by the demo data): `count` pending invites in
   * one transaction, all or none, expiring after `expiresInDays` (INVITE_TTL_DAYS by default). Returns their linkIDs.
   */
  async insertInvites(
    target: { interviewID: string; productID: string; orgID: string | null; segment?: string | null },
    count: number,
    options: { expiresInDays?: number; createdAt?: Date } = {},
  ): Promise<string[]> {
    const linkIDs = newUrlSecrets(count);
    const createdAt = options.createdAt ?? new Date();
    const expiresAt = new Date(createdAt.getTime() + (options.expiresInDays ?? this.config.inviteTtlDays) * DAY_MS);
    await this.invites.insertPending(target, linkIDs, createdAt, expiresAt);
    return linkIDs;
  }

  async getOne(linkID: string, principal: Principal): Promise<InviteDto> {
    const found = this.access.visible(principal, await this.invites.findOwned(linkID), (i) => i.owner, () => new InviteNotFoundException(linkID));
    return inviteDtoOf(found.invite);
  }

  /**
   * A kept recording, as a download outside the {result} envelope (its bytes, its media type): for a
   * caller who can see the invite, 404 otherwise, and 404 when no recording is kept for that turn.
   */
  async getAudio(linkID: string, turnIndex: number, principal: Principal): Promise<StreamableFile> {
    this.access.visible(principal, await this.invites.findOwned(linkID), (i) => i.owner, () => new InviteNotFoundException(linkID));
    const audio = await this.audio.find(linkID, turnIndex);
    if (!audio) throw new AudioNotFoundException(linkID, turnIndex);
    const extension = Object.hasOwn(AUDIO_FILE_NAMES, audio.contentType) ? AUDIO_FILE_NAMES[audio.contentType as AudioType].split('.').pop() : 'audio';
    return new StreamableFile(audio.bytes, { type: audio.contentType, length: audio.bytes.length, disposition: `attachment; filename="${linkID}-${turnIndex}.${extension}"` });
  }

  /** pending | started → revoked, for a caller who can see the invite (404 otherwise). */
  async revoke(linkID: string, principal: Principal): Promise<{ linkID: string; status: 'revoked' }> {
    this.access.visible(principal, await this.invites.findOwned(linkID), (i) => i.owner, () => new InviteNotFoundException(linkID));
    await this.lifecycle.revoke(linkID);
    return { linkID, status: 'revoked' };
  }

  async list(query: ListInvitesQueryDto, principal: Principal): Promise<ListAnswer<ListedInviteDto>> {
    if (query.interviewID === undefined && query.productID === undefined) throw new MissingOneOfException(['interviewID', 'productID']);
    // The named interview and product must exist and be visible: 404 otherwise, as for getOne. Their
    // invites are then visible too, so the rows need no scope condition of their own.
    if (query.interviewID !== undefined) await this.interviews.requireVisible(principal, query.interviewID);
    if (query.productID !== undefined) await this.products.requireVisible(principal, query.productID);
    const list = this.invites.list({ interviewID: query.interviewID, productID: query.productID, segment: query.segment });
    // The transcripts and other JSON as stored (StoredJson) are written into a streamed list as they are.
    return answerList(query, list, (rows) => rows.map(inviteDtoOf), STREAM_CHUNK, stringifyRow);
  }
}
