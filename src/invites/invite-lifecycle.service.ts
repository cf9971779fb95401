import { Metrics } from '../metrics/metrics.service';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isDuplicateKey } from '../database/database-errors';
import { validateInput } from '../common/validation';
import { CompletedInterview, ProfilesService } from '../profiles/profiles.service';
import { OutboxEvent, WebhookOutbox } from '../webhooks/webhook-outbox.service';
import { TurnsInput, UserInfoInput } from './dto/lifecycle-input.dto';
import type { Interview } from '../interviews/interview.entity';
import type { ConversationTurn, Invite, TurnMeta, UserInfo } from './invite.entity';
import { InviteStatus, TRANSITIONS } from '../domain/invite-status';
import type { InviteQuality } from './invite-quality';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { SENTIMENT_METHOD, answerSentiment } from '../profiles/sentiment';
import { InviteChangedException, InviteExpiredException, InviteNotFoundException, InviteNotRevocableException, InviteStateException, TranscriptFullException } from './invites.errors';
import { InviteEvent, InviteInRoom, InvitePatch, InvitesRepository, NewOpenInvite } from './invites.repository';
import { transaction } from '../database/transaction';
import { InviteAudioRepository, KeptAudio } from './invite-audio.repository';

/** An invite as the interview room works with it: the invite, its interview and its product. */
export type RoomInvite = Pick<
  Invite,
  | 'linkID'
  | 'interviewID'
  | 'productID'
  | 'orgID'
  | 'userInfo'
  | 'status'
  | 'createdAt'
  | 'completedOn'
  | 'expiresAt'
  | 'startedOn'
  | 'language'
  | 'conversation'
  | 'source'
  | 'participantID'
  | 'passthrough'
  | 'quality'
> &
  Pick<Interview, 'interviewName' | 'publicTitle' | 'consentText' | 'completionRedirectUrl' | 'guidelines' | 'translations' | 'interviewer' | 'redactPII' | 'mode' | 'keepAudio'> & {
    /** One entry per conversation turn (entries of turns stored before they were kept: unknown). */
    turnMeta: TurnMeta[];
    /** The interview's fixed language; null: `auto`. */
    interviewLanguage: string | null;
    productName: string;
    productDesc: string | null;
    productImage: string | null;
    productUserID: string | null;
    /** The interview's recruitment redirects by outcome; null without a recruitment. */
    recruitmentRedirects: Record<string, string | null> | null;
  };

/** A turn to store: what was said, and the guideline question an interviewer turn asks or follows up. */
export interface NewTurn extends ConversationTurn {
  questionIndex: number | null;
}

const UNKNOWN: TurnMeta = { at: null, questionIndex: null };

/** The stored per-turn data, one entry per turn whatever an older row holds. */
function turnMetaOf(meta: TurnMeta[] | null, turns: number): TurnMeta[] {
  meta ??= [];
  return meta.length === turns ? meta : Array.from({ length: turns }, (_, i) => meta[i] ?? UNKNOWN);
}

function roomInviteOf({ interview, product, recruitment, ...invite }: InviteInRoom): RoomInvite {
  return {
    linkID: invite.linkID,
    interviewID: invite.interviewID,
    productID: invite.productID,
    orgID: invite.orgID,
    userInfo: invite.userInfo,
    status: invite.status,
    createdAt: invite.createdAt,
    completedOn: invite.completedOn,
    expiresAt: invite.expiresAt,
    startedOn: invite.startedOn,
    language: invite.language,
    conversation: invite.conversation,
    turnMeta: turnMetaOf(invite.turnMeta, invite.conversation.length),
    interviewName: interview.interviewName,
    interviewLanguage: interview.language,
    publicTitle: interview.publicTitle,
    consentText: interview.consentText,
    completionRedirectUrl: interview.completionRedirectUrl,
    guidelines: interview.guidelines,
    translations: interview.translations,
    interviewer: interview.interviewer,
    productName: product.name,
    productDesc: product.desc,
    productImage: product.imageLink,
    productUserID: product.userID,
    redactPII: interview.redactPII,
    mode: interview.mode,
    keepAudio: interview.keepAudio,
    source: invite.source,
    participantID: invite.participantID,
    passthrough: invite.passthrough,
    quality: invite.quality,
    recruitmentRedirects: recruitment?.redirects ?? null,
  };
}

/** How often a change that found a unique key just taken by another transaction is run again. */
const RACE_ATTEMPTS = 4;

/** The invite statuses a webhook event announces. */
type AnnouncedStatus = 'started' | 'completed' | 'abandoned' | 'expired' | 'revoked' | 'screenedout' | 'overquota';
const ANNOUNCED: readonly InviteStatus[] = ['started', 'completed', 'abandoned', 'expired', 'revoked', 'screenedout', 'overquota'];

/**
 * New turns as they are stored: the transcript's entries (role and content only, checked like an HTTP
 * body would be) and their per-turn data, stamped `now`.
 */
function checkedTurns(turns: NewTurn[], now: Date, language: string | null): { conversation: ConversationTurn[]; meta: TurnMeta[] } {
  const checked = validateInput(TurnsInput, { turns: turns.map(({ role, content }) => ({ role, content })) } as TurnsInput).turns;
  const at = now.toISOString();
  return {
    conversation: checked.map(({ role, content }) => ({ role, content })),
    // An answer is scored once, here: lists, exports and reports read the score rather than score it again.
    meta: turns.map((turn) =>
      turn.role === 'interviewee'
        ? { at, questionIndex: null, sentiment: answerSentiment(turn.content, language), sentimentMethod: SENTIMENT_METHOD }
        : { at, questionIndex: turn.role === 'interviewer' && Number.isInteger(turn.questionIndex) ? turn.questionIndex : null },
    ),
  };
}

/** The sentiment of each interviewee turn: as stored with it, or scored now for turns stored before scores were kept. */
export function answerScores(conversation: readonly ConversationTurn[], meta: readonly TurnMeta[], language: string | null): (number | null)[] {
  const scores: (number | null)[] = [];
  conversation.forEach((turn, i) => {
    if (turn.role !== 'interviewee') return;
    const stored = meta[i]?.sentiment;
    scores.push(stored !== undefined ? stored : answerSentiment(turn.content, language));
  });
  return scores;
}

/** Whether the interviewee has said anything: an interview ended before that is abandoned, not completed. */
export function hasAnswers(conversation: readonly ConversationTurn[]): boolean {
  return conversation.some((turn) => turn.role === 'interviewee');
}

/** Pending or started past expires_on: expired, whether or not the sweep has got to it yet. */
export function isDue(status: InviteStatus, expiresAt: Date, now: Date): boolean {
  return (status === 'pending' || status === 'started') && expiresAt.getTime() <= now.getTime();
}

/** The webhook events of invites that are now in `status` (the others changed meanwhile); `flagged` for those whose quality was flagged. */
function inviteEvents(rows: InviteEvent[], status: AnnouncedStatus | 'flagged'): OutboxEvent[] {
  return rows
    .filter((r) => status === 'flagged' || r.status === status)
    .map((r) => {
      const data = {
        linkID: r.linkID,
        interviewID: r.interviewID,
        productID: r.productID,
        orgID: r.orgID,
        status: r.status,
        completed_on: r.completedOn === null ? null : r.completedOn.toISOString(),
      };
      return { type: `invite.${status}` as const, products: [{ productID: r.productID, ...r.owner }], data: () => data };
    });
}

/** How a completion fills the interviewee's profile (see ProfilesService.recordInterview). */
export type CompletionSummary = CompletedInterview['summary'];

/**
 * The invite lifecycle: the only code that changes an invite after createInvites made it (invites are
 * read-only under /v1). pending → started → completed; pending | started → expired; nothing else.
 *
 * Every change is one short transaction that locks the row (MySQL; SQLite has one writer), expires it
 * first when it is past expires_on (then answers 409 "expired"), checks the status the change needs,
 * and checks that the transcript is still the one the caller composed its turns for: the interviewer
 * agent (possibly an LLM call of seconds) runs before the transaction, never inside it, and a reply
 * that raced another one gets InviteChangedException and is composed again on the new transcript. So
 * concurrent replies to one invite never interleave, and no database connection waits on a model.
 */
@Injectable()
export class InviteLifecycleService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly invites: InvitesRepository,
    private readonly audio: InviteAudioRepository,
    private readonly profiles: ProfilesService,
    private readonly outbox: WebhookOutbox,
    private readonly metrics: Metrics,
  ) {}

  /** The invite with its interview and product; one past expires_on is expired on the way (lazy expiry). */
  async read(linkID: string, now = new Date()): Promise<RoomInvite> {
    const row = await this.invites.findForRoom(linkID);
    if (!row) throw new InviteNotFoundException(linkID);
    const invite = roomInviteOf(row);
    if (isDue(invite.status, invite.expiresAt, now)) {
      await this.expire(linkID, now);
      invite.status = 'expired';
    }
    return invite;
  }

  /**
   * pending → started: who the interviewee is, the language the interview is held in, and the first
   * turns (the consent note, the agent's opening). `admit` (an open link's invite) decides in the same
   * transaction whether a place is still free; when it is not, the invite is overquota instead.
   * `quality` is the invite's quality with what the start tells (an e-mail another invite used); the
   * address's digest is kept in the same transaction, after it, for the checks of later starts.
   */
  async start(
    invite: RoomInvite,
    userInfo: UserInfo,
    turns: NewTurn[],
    language: string,
    now = new Date(),
    options: { admit?: (db: EntityManager) => Promise<boolean>; quality?: (db: EntityManager, email: string | null) => Promise<InviteQuality | null> } = {},
  ): Promise<'started' | 'overquota'> {
    const person = validateInput(UserInfoInput, userInfo);
    const { conversation, meta } = checkedTurns(turns, now, language);
    let outcome: 'started' | 'overquota' = 'started';
    await this.change(invite, 'pending', now, async (db) => {
      outcome = options.admit && !(await options.admit(db)) ? 'overquota' : 'started';
      if (outcome === 'overquota') return { status: 'overquota' };
      const quality = options.quality ? await options.quality(db, person.email ?? null) : null;
      // The address's digest, for the next start's check: kept after this one's, which must not find it.
      if (person.email) await this.invites.keepEmail(db, invite, person.email);
      return {
        status: 'started',
        userInfo: { email: person.email ?? null, name: person.name ?? null, occupation: person.occupation ?? null },
        conversation,
        turnMeta: meta,
        startedOn: now,
        language,
        ...(quality ? { quality } : {}),
      };
    });
    return outcome;
  }

  /**
   * A new invite of the open link: `decide` runs in the transaction that inserts it (after its lock)
   * and answers the status the arrival gets (pending: on to the room; screenedout or overquota:
   * terminal, announced). A second arrival of the same participant meanwhile finds the unique key
   * taken: the caller reads the invite that won.
   */
  async openInvite(row: Omit<NewOpenInvite, 'status'>, decide: (db: EntityManager) => Promise<'pending' | 'screenedout' | 'overquota'>): Promise<InviteStatus> {
    const status = await transaction(this.dataSource, async (db) => {
      const status = await decide(db);
      await this.invites.insertOpen(db, { ...row, status });
      if (status !== 'pending') await this.announce(db, [row.linkID], status, row.createdAt);
      return status;
    });
    if (status !== 'pending') this.metrics.inviteTransition(status);
    return status;
  }

  /**
   * Appends turns to a started invite's transcript; with `complete`, the same transaction completes the
   * invite and records the interview in its interviewee's profile. With `audio`, the recording of the
   * (first) interviewee turn among them is kept in the same transaction, keyed by that turn's index.
   */
  async append(
    invite: RoomInvite,
    turns: NewTurn[],
    complete: { summary: CompletionSummary } | null,
    now = new Date(),
    audio: KeptAudio | null = null,
    quality: ((db: EntityManager) => Promise<InviteQuality | null>) | null = null,
  ): Promise<void> {
    const added = checkedTurns(turns, now, invite.language);
    const conversation = [...invite.conversation, ...added.conversation];
    if (conversation.length > INVITE_LIMITS.turns || Buffer.byteLength(JSON.stringify(conversation), 'utf8') > INVITE_LIMITS.transcriptBytes) {
      throw new TranscriptFullException();
    }
    const turnMeta = [...invite.turnMeta, ...added.meta];
    const answerAt = invite.conversation.length + turns.findIndex((turn) => turn.role === 'interviewee');
    if (audio && answerAt < invite.conversation.length) throw new Error('a recording is kept with an answer, and these turns hold none');
    await this.change(invite, 'started', now, async (db) => {
      if (audio) await this.audio.store(db, invite.linkID, answerAt, audio, now);
      if (complete) await this.recordProfile(db, { ...invite, conversation, turnMeta }, complete.summary, now);
      const answerCount = conversation.filter((turn) => turn.role === 'interviewee').length;
      const judged = quality ? await quality(db) : null;
      const wasFlagged = (invite.quality?.flags.length ?? 0) > 0;
      // Announced once, when the first flag is raised.
      if (judged && judged.flags.length > 0 && !wasFlagged) await this.announce(db, [invite.linkID], 'flagged', now);
      const kept = judged ? { quality: judged } : {};
      return complete ? { status: 'completed', conversation, turnMeta, answerCount, completedOn: now, ...kept } : { conversation, turnMeta, answerCount, ...kept };
    });
  }

  /**
   * started → completed, the transcript as it is (the interviewee ended early). Only an interview with
   * an answer completes (and counts in a profile); one without is abandoned.
   */
  async complete(invite: RoomInvite, summary: CompletionSummary, now = new Date()): Promise<void> {
    if (!hasAnswers(invite.conversation)) throw new InviteStateException(invite.status, 'completed');
    await this.change(invite, 'started', now, async (db) => {
      await this.recordProfile(db, invite, summary, now);
      return { status: 'completed', completedOn: now };
    });
  }

  /** started → abandoned: ended before any answer; no profile is made or touched, no completed_on. */
  async abandon(invite: RoomInvite, now = new Date()): Promise<void> {
    if (hasAnswers(invite.conversation)) throw new InviteStateException(invite.status, 'abandoned');
    await this.change(invite, 'started', now, () => ({ status: 'abandoned' }));
  }

  /** pending | started → expired, when past expires_on; false when another change got there first. */
  async expire(linkID: string, now = new Date()): Promise<boolean> {
    const expired = await transaction(this.dataSource, async (db) => {
      const state = await this.invites.lockState(db, linkID);
      if (!state || !isDue(state.status, state.expiresAt, now)) return false;
      await this.invites.write(db, linkID, { status: 'expired' }, now);
      await this.announce(db, [linkID], 'expired', now);
      return true;
    });
    // Counted once committed: a transaction run again after a deadlock must not count twice.
    if (expired) this.metrics.inviteTransition('expired');
    return expired;
  }

  /**
   * pending | started → revoked: the research team withdraws the link (the transcript so far stays, for
   * the team; the room shows nothing of it any more). One past expires_on is expired instead, and 409.
   */
  async revoke(linkID: string, now = new Date()): Promise<void> {
    const expired = await transaction(this.dataSource, async (db) => {
      const state = await this.invites.lockState(db, linkID);
      if (!state) throw new InviteNotFoundException(linkID);
      if (isDue(state.status, state.expiresAt, now)) {
        await this.invites.write(db, linkID, { status: 'expired' }, now);
        await this.announce(db, [linkID], 'expired', now);
        return true;
      }
      if (!TRANSITIONS[state.status].includes('revoked')) throw new InviteNotRevocableException(state.status);
      await this.invites.write(db, linkID, { status: 'revoked' }, now);
      await this.announce(db, [linkID], 'revoked', now);
      return false;
    });
    // Counted once committed, as every transition is.
    this.metrics.inviteTransition(expired ? 'expired' : 'revoked');
    if (expired) throw new InviteNotRevocableException('expired');
  }

  /**
   * Expires up to `limit` invites past expires_on; returns how many. Safe in every instance at once:
   * on MySQL each takes rows the others have not locked (SKIP LOCKED), and a row is only changed while
   * it is still pending or started.
   */
  async sweepExpired(now = new Date(), limit = 500): Promise<number> {
    const count = await transaction(this.dataSource, async (db) => {
      const due = await this.invites.lockDueToExpire(db, now, limit);
      if (due.length === 0) return 0;
      await this.invites.expireMany(db, due, now);
      await this.announce(db, due, 'expired', now);
      return due.length;
    });
    if (count > 0) this.metrics.inviteTransition('expired', count);
    return count;
  }

  /**
   * One change: lock, expire when due, check the status the change needs (`from`) and the transcript the
   * caller saw, then write what `patch` returns (inside the transaction, so it may write more rows).
   */
  private async change(invite: RoomInvite, from: InviteStatus, now: Date, patch: (db: EntityManager) => InvitePatch | Promise<InvitePatch>): Promise<void> {
    // Two completions for one interviewee at once can find the profile's unique key taken by the other:
    // the loser's transaction was rolled back, so it runs again (and finds the profile). Deadlocks and
    // lock waits are run again by transaction() itself.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.changeOnce(invite, from, now, patch);
      } catch (error) {
        if (attempt >= RACE_ATTEMPTS || !isDuplicateKey(error)) throw error;
      }
    }
  }

  private async changeOnce(invite: RoomInvite, from: InviteStatus, now: Date, patch: (db: EntityManager) => InvitePatch | Promise<InvitePatch>): Promise<void> {
    let moved: InviteStatus | undefined;
    const expired = await transaction(this.dataSource, async (db) => {
      moved = undefined;
      const state = await this.invites.lockState(db, invite.linkID);
      if (!state) throw new InviteNotFoundException(invite.linkID);
      if (isDue(state.status, state.expiresAt, now)) {
        await this.invites.write(db, invite.linkID, { status: 'expired' }, now);
        await this.announce(db, [invite.linkID], 'expired', now);
        return true;
      }
      if (state.status !== from) throw new InviteStateException(state.status, from);
      if (state.conversation.length !== invite.conversation.length) throw new InviteChangedException();
      const changes = await patch(db);
      if (changes.status !== undefined && !TRANSITIONS[from].includes(changes.status)) throw new InviteStateException(from, changes.status);
      await this.invites.write(db, invite.linkID, changes, now);
      // A change only appends to the transcript (checked above): the appended turns are the ones past the stored length.
      if (changes.conversation) await this.invites.keepAnswers(db, invite, changes.conversation, state.conversation.length);
      moved = changes.status;
      if (changes.status !== undefined && ANNOUNCED.includes(changes.status)) await this.announce(db, [invite.linkID], changes.status as AnnouncedStatus, now);
      return false;
    });
    // The expiry is committed; only then is the caller told.
    if (expired) {
      this.metrics.inviteTransition('expired');
      throw new InviteExpiredException();
    }
    if (moved) this.metrics.inviteTransition(moved);
  }

  /** The webhook events of the invites moved to `status`, in the transaction that moved them. */
  private async announce(db: EntityManager, linkIDs: string[], status: AnnouncedStatus | 'flagged', at: Date): Promise<void> {
    await this.outbox.write(db, inviteEvents(await this.invites.eventRows(db, linkIDs), status), at);
  }

  private async recordProfile(db: EntityManager, invite: RoomInvite, summary: CompletionSummary, now: Date): Promise<void> {
    await this.profiles.recordInterview(db, {
      linkID: invite.linkID,
      productID: invite.productID,
      orgID: invite.orgID,
      productUserID: invite.productUserID,
      person: { email: invite.userInfo?.email ?? null, name: invite.userInfo?.name ?? null, occupation: invite.userInfo?.occupation ?? null },
      completedOn: now,
      scores: answerScores(invite.conversation, invite.turnMeta, invite.language),
      summary,
    });
  }
}
