import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { IN_CHUNK } from '../common/limits';
import { KeysetList, SqlWhere } from '../common/keyset';
import { FOR_UPDATE_SKIP_LOCKED_SQL, FOR_UPDATE_SQL, sqlDate } from '../database/column-types';
import type { ConversationTurn, TurnMeta, UserInfo } from './invite.entity';
import type { InviteSource, InviteStatus } from '../domain/invite-status';
import type { InviteQuality, ScreenerAnswer } from './invite-quality';
import { transaction } from '../database/transaction';

/** An invite as the SQL reads it: JSON still as text, times as the driver gives them. */
export interface InviteRow {
  linkID: string;
  interviewID: string;
  productID: string;
  orgID: string | null;
  userInfo: string | null;
  status: InviteStatus;
  createdAt: Date | string;
  completedOn: Date | string | null;
  expiresAt: Date | string;
  conversation: string;
  source: InviteSource;
  participantID: string | null;
  segment: string | null;
  passthrough: string | null;
  screener: string | null;
  quality: string | null;
}

/** What the room reads with an invite: its interview and its product. */
export interface RoomContext {
  interviewName: string;
  /** The interview's fixed language; null: `auto`. */
  interviewLanguage: string | null;
  publicTitle: string | null;
  consentText: string | null;
  completionRedirectUrl: string | null;
  guidelines: string | null;
  /** The interview's translations of its guidelines, as stored (JSON text `{tag: guidelines}`); null: none. */
  translations: string | null;
  interviewer: string;
  productName: string;
  productDesc: string | null;
  productImage: string | null;
  productUserID: string | null;
  /** The interview's redactPII (0 or 1 as the engines give it): identifiers leave answers before they are stored. */
  redactPII: boolean | number;
  /** The interview's mode: `text` or `voice`. */
  mode: string;
  /** The interview's keepAudio (0 or 1 as the engines give it): voice answers' recordings are kept with the invite. */
  keepAudio: boolean | number;
  /** The interview's recruitment redirects (JSON text); null without a recruitment. */
  recruitmentRedirects: string | null;
}

export interface RoomInviteRow extends InviteRow, RoomContext {
  startedOn: Date | string | null;
  language: string | null;
  turnMeta: string | null;
  flagged: boolean | number;
}

/** An invite of the open link, as a new arrival of the same participant finds it. */
export interface ParticipantInvite {
  linkID: string;
  status: InviteStatus;
  flagged: boolean;
  passthrough: Record<string, string> | null;
}

/** A new invite made by the open link. */
export interface OpenInviteRow {
  linkID: string;
  interviewID: string;
  productID: string;
  orgID: string | null;
  status: InviteStatus;
  participantID: string;
  passthrough: Record<string, string>;
  screener: ScreenerAnswer[];
  segment: string | null;
  /** `|quotaID|…|`, or null when the invite is in no quota cell. */
  quotaCells: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Places taken in an interview: all of them, and in each quota cell asked about (in the order asked). */
export interface PlacesHeld {
  total: number;
  cells: number[];
}

/** The row as a change finds it, locked until its transaction ends (MySQL; SQLite has one writer). */
export interface InviteState {
  status: InviteStatus;
  conversation: string;
  expiresAt: Date | string;
}

/** What an invite event says, and who owns its product (which webhook endpoints may see it). */
export interface InviteEventRow {
  linkID: string;
  interviewID: string;
  productID: string;
  orgID: string | null;
  status: InviteStatus;
  completedOn: Date | string | null;
  owner: Owned;
}

/** An invite as its answers are read: with the per-turn data and what the export shows of the person. */
export interface AnswerSourceRow {
  linkID: string;
  createdAt: Date | string;
  status: InviteStatus;
  startedOn: Date | string | null;
  completedOn: Date | string | null;
  language: string | null;
  userInfo: string | null;
  conversation: string;
  turnMeta: string | null;
}

/** How many invites of an interview are in each status, how many ever started, and how many answers they hold. */
export interface InterviewTally {
  byStatus: Partial<Record<InviteStatus, number>>;
  started: number;
  answers: number;
}

/** What a change writes; absent fields stay as they are. */
export interface InvitePatch {
  status?: InviteStatus;
  userInfo?: UserInfo;
  conversation?: ConversationTurn[];
  /** Written with the conversation: one entry per turn. */
  turnMeta?: TurnMeta[];
  /** Written with the conversation: its interviewee turns. */
  answerCount?: number;
  startedOn?: Date;
  language?: string;
  completedOn?: Date;
  quality?: InviteQuality;
}

const COLUMNS =
  'i.link_id AS linkID, i.interview_id AS interviewID, i.product_id AS productID, i.org_id AS orgID, i.user_info AS userInfo, ' +
  'i.status AS status, i.created_at AS createdAt, i.completed_on AS completedOn, i.expires_on AS expiresAt, i.conversation AS conversation, ' +
  'i.source AS source, i.participant_id AS participantID, i.segment AS segment, i.passthrough AS passthrough, i.screener AS screener, i.quality AS quality';

/** Rows per INSERT statement: 1,000 rows of 8 parameters stay under SQLite's variable limit. */
const INSERT_CHUNK = 1000;

const inList = (n: number) => `(${new Array<string>(n).fill('?').join(', ')})`;

/** The invites table: the API's reads, the batch insert, and every change of the invite lifecycle. */
@Injectable()
export class InvitesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The invite with its product's owners, which decide who may see it. */
  async findOwned(linkID: string): Promise<{ invite: InviteRow; owner: Owned } | undefined> {
    const [row] = await this.dataSource.query<(InviteRow & { ownerOrgID: string | null; ownerUserID: string | null })[]>(
      `SELECT ${COLUMNS}, p.org_id AS ownerOrgID, p.user_id AS ownerUserID FROM invites i INNER JOIN products p ON p.id = i.product_id WHERE i.link_id = ?`,
      [linkID],
    );
    if (!row) return undefined;
    const { ownerOrgID, ownerUserID, ...invite } = row;
    return { invite, owner: { orgID: ownerOrgID, userID: ownerUserID } };
  }

  /** Invites of an interview and/or a product, in the lists' order. */
  list(filter: { interviewID?: string; productID?: string; segment?: string }): KeysetList<InviteRow> {
    const where = new SqlWhere();
    if (filter.segment !== undefined) where.and('i.segment = ?', filter.segment);
    if (filter.interviewID !== undefined) where.and('i.interview_id = ?', filter.interviewID);
    if (filter.productID !== undefined) where.and('i.product_id = ?', filter.productID);
    return new KeysetList<InviteRow>({
      query: (sql, params) => this.dataSource.query(sql, params),
      columns: COLUMNS,
      from: 'invites i',
      where,
      keys: { created: 'i.created_at', id: 'i.link_id' },
      idOf: (r) => r.linkID,
    });
  }

  /**
   * The invites of an interview that hold answers, in the lists' order (creation, then linkID). Invites
   * without one (pending, abandoned) are left out by answer_count, without reading their transcripts.
   */
  answerSources(interviewID: string, options: { withPerson?: boolean; withFlagged?: boolean } = {}): KeysetList<AnswerSourceRow> {
    const where = new SqlWhere().and('i.interview_id = ?', interviewID).and('i.answer_count > 0');
    // A report leaves flagged invites out unless it asked for them (reports/addOne includeFlagged).
    if (options.withFlagged === false) where.and('i.flagged = 0');
    return new KeysetList<AnswerSourceRow>({
      query: (sql, params) => this.dataSource.query(sql, params),
      columns:
        'i.link_id AS linkID, i.created_at AS createdAt, i.status AS status, i.started_on AS startedOn, i.completed_on AS completedOn, ' +
        // Without the person (a report's reading): their name and e-mail are not read at all.
        `i.language AS language, ${options.withPerson === false ? 'NULL' : 'i.user_info'} AS userInfo, i.conversation AS conversation, i.turn_meta AS turnMeta`,
      from: 'invites i',
      where,
      keys: { created: 'i.created_at', id: 'i.link_id' },
      idOf: (r) => r.linkID,
    });
  }

  /** The interview's invites counted by status, those ever started, and their answers, as of now. */
  async tally(interviewID: string, options: { withFlagged?: boolean } = {}): Promise<InterviewTally> {
    const rows = await this.dataSource.query<{ status: InviteStatus; n: number | string; started: number | string; answers: number | string }[]>(
      `SELECT status, COUNT(*) AS n, COUNT(started_on) AS started, COALESCE(SUM(answer_count), 0) AS answers FROM invites WHERE interview_id = ?${options.withFlagged === false ? ' AND flagged = 0' : ''} GROUP BY status`,
      [interviewID],
    );
    const tally: InterviewTally = { byStatus: {}, started: 0, answers: 0 };
    for (const r of rows) {
      tally.byStatus[r.status] = Number(r.n);
      tally.started += Number(r.started);
      tally.answers += Number(r.answers);
    }
    return tally;
  }

  /** New pending invites, in one transaction (all or none). The constant columns are inlined. */
  async insertPending(
    target: { interviewID: string; productID: string; orgID: string | null; segment?: string | null },
    linkIDs: string[],
    createdAt: Date,
    expiresAt: Date,
  ): Promise<void> {
    const at = sqlDate(createdAt);
    const expires = sqlDate(expiresAt);
    await transaction(this.dataSource, async (db) => {
      for (let start = 0; start < linkIDs.length; start += INSERT_CHUNK) {
        const chunk = linkIDs.slice(start, start + INSERT_CHUNK);
        const params: (string | null)[] = [];
        for (const linkID of chunk) params.push(linkID, target.interviewID, target.productID, target.orgID, at, at, expires, target.segment ?? null);
        await db.query(
          'INSERT INTO invites (link_id, interview_id, product_id, org_id, created_at, updated_at, expires_on, segment, user_info, status, completed_on, conversation, turn_meta) VALUES ' +
            new Array<string>(chunk.length).fill("(?, ?, ?, ?, ?, ?, ?, ?, NULL, 'pending', NULL, '[]', '[]')").join(', '),
          params,
        );
      }
    });
  }

  /**
   * An invite with what the interview room shows and what its interviewer agent needs: the interview's
   * name, guidelines and agent, the product's name, description and image, and the product's owning
   * user (the owner of the interviewee's profile when the invite has no organization).
   */
  async findForRoom(linkID: string): Promise<RoomInviteRow | undefined> {
    const [row] = await this.dataSource.query<RoomInviteRow[]>(
      `SELECT ${COLUMNS},
        i.started_on AS startedOn, i.language AS language, i.turn_meta AS turnMeta, i.flagged AS flagged,
        rc.redirects AS recruitmentRedirects,
        iv.name AS interviewName, iv.guidelines AS guidelines, iv.translations AS translations, iv.interviewer AS interviewer, iv.language AS interviewLanguage,
        iv.public_title AS publicTitle, iv.consent_text AS consentText, iv.completion_redirect_url AS completionRedirectUrl, iv.redact_pii AS redactPII,
        iv.mode AS mode, iv.keep_audio AS keepAudio,
        p.name AS productName, p.description AS productDesc, p.image_link AS productImage, p.user_id AS productUserID
        FROM invites i INNER JOIN interviews iv ON iv.id = i.interview_id INNER JOIN products p ON p.id = i.product_id
        LEFT JOIN recruitments rc ON rc.interview_id = i.interview_id WHERE i.link_id = ?`,
      [linkID],
    );
    return row;
  }

  /** The row as it is now, locked until the transaction ends (on MySQL). */
  async lockState(db: EntityManager, linkID: string): Promise<InviteState | undefined> {
    const [state] = await db.query<InviteState[]>(`SELECT status, conversation, expires_on AS expiresAt FROM invites WHERE link_id = ?${FOR_UPDATE_SQL}`, [linkID]);
    return state;
  }

  async write(db: EntityManager, linkID: string, patch: InvitePatch, now: Date): Promise<void> {
    const columns: [string, unknown][] = [['updated_at', sqlDate(now)]];
    if (patch.status !== undefined) columns.push(['status', patch.status]);
    if (patch.userInfo !== undefined) columns.push(['user_info', JSON.stringify(patch.userInfo)]);
    if (patch.conversation !== undefined) columns.push(['conversation', JSON.stringify(patch.conversation)]);
    if (patch.turnMeta !== undefined) columns.push(['turn_meta', JSON.stringify(patch.turnMeta)]);
    if (patch.answerCount !== undefined) columns.push(['answer_count', patch.answerCount]);
    if (patch.startedOn !== undefined) columns.push(['started_on', sqlDate(patch.startedOn)]);
    if (patch.language !== undefined) columns.push(['language', patch.language]);
    if (patch.completedOn !== undefined) columns.push(['completed_on', sqlDate(patch.completedOn)]);
    if (patch.quality !== undefined) columns.push(['quality', JSON.stringify(patch.quality)], ['flagged', patch.quality.flags.length > 0 ? 1 : 0]);
    await db.query(`UPDATE invites SET ${columns.map(([c]) => `${c} = ?`).join(', ')} WHERE link_id = ?`, [...columns.map(([, v]) => v), linkID]);
  }

  /**
   * Up to `limit` pending or started invites past expires_on, oldest first, locked; on MySQL each
   * instance takes rows the others have not locked (SKIP LOCKED).
   */
  async lockDueToExpire(db: EntityManager, now: Date, limit: number): Promise<string[]> {
    const rows = await db.query<{ linkID: string }[]>(
      `SELECT link_id AS linkID FROM invites WHERE status IN ('pending', 'started') AND expires_on <= ? ORDER BY expires_on LIMIT ?${FOR_UPDATE_SKIP_LOCKED_SQL}`,
      [sqlDate(now), limit],
    );
    return rows.map((r) => r.linkID);
  }

  /** Expires those of the invites that are still pending or started. */
  async expireMany(db: EntityManager, linkIDs: string[], now: Date): Promise<void> {
    await db.query(`UPDATE invites SET status = 'expired', updated_at = ? WHERE status IN ('pending', 'started') AND link_id IN ${inList(linkIDs.length)}`, [
      sqlDate(now),
      ...linkIDs,
    ]);
  }

  /**
   * Which of these invites have been erased, their rows locked (MySQL) until the caller's transaction
   * ends: a report storing quotes of them waits for an erasure under way, and one that starts after
   * waits for the report and then finds its quotes to take out.
   */
  async erasedAmong(db: EntityManager, linkIDs: readonly string[]): Promise<Set<string>> {
    const erased = new Set<string>();
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      const ids = linkIDs.slice(i, i + IN_CHUNK);
      const rows = await db.query<{ linkID: string; erasedOn: unknown }[]>(
        `SELECT link_id AS linkID, erased_on AS erasedOn FROM invites WHERE link_id IN ${inList(ids.length)} ORDER BY link_id${FOR_UPDATE_SQL}`,
        ids,
      );
      for (const row of rows) if (row.erasedOn !== null) erased.add(row.linkID);
    }
    return erased;
  }

  /** The open link's invite of a participant in an interview, if the participant came before. */
  async findByParticipant(interviewID: string, participantID: string, db: EntityManager = this.dataSource.manager): Promise<ParticipantInvite | undefined> {
    const [row] = await db.query<{ linkID: string; status: InviteStatus; flagged: boolean | number; passthrough: string | null }[]>(
      'SELECT link_id AS linkID, status, flagged, passthrough FROM invites WHERE interview_id = ? AND participant_id = ?',
      [interviewID, participantID],
    );
    return row && { linkID: row.linkID, status: row.status, flagged: Boolean(Number(row.flagged)), passthrough: row.passthrough === null ? null : JSON.parse(row.passthrough) };
  }

  /**
   * The places taken in an interview, under the caller's lock on its recruitment: invites completed, or
   * started and not yet ended, and the open link's pending invites made since `holdSince` (people on
   * their way to the consent); in all, and in each of `cells` (quota IDs). `except` is left out (the
   * invite asking for its own place).
   */
  async placesHeld(db: EntityManager, interviewID: string, cells: readonly string[], holdSince: Date, except: string | null = null): Promise<PlacesHeld> {
    // INSTR on both engines: quota IDs hold no LIKE wildcards to escape, and `|` delimits them exactly.
    const counts = cells.map((_, i) => `SUM(CASE WHEN INSTR(quota_cells, ?) > 0 THEN 1 ELSE 0 END) AS c${i}`);
    const [row] = await db.query<Record<string, number | string | null>[]>(
      `SELECT ${['COUNT(*) AS total', ...counts].join(', ')} FROM invites WHERE interview_id = ? ` +
        "AND (status IN ('started', 'completed') OR (status = 'pending' AND source = 'open' AND created_at > ?))" +
        (except === null ? '' : ' AND link_id <> ?'),
      [...cells.map((cell) => `|${cell}|`), interviewID, sqlDate(holdSince), ...(except === null ? [] : [except])],
    );
    return { total: Number(row?.total ?? 0), cells: cells.map((_, i) => Number(row?.[`c${i}`] ?? 0)) };
  }

  /** The quota cells an invite holds a place in (none: []). */
  async quotaCellsOf(db: EntityManager, linkID: string): Promise<string[]> {
    const [row] = await db.query<{ cells: string | null }[]>('SELECT quota_cells AS cells FROM invites WHERE link_id = ?', [linkID]);
    return (row?.cells ?? '').split('|').filter((cell) => cell.length > 0);
  }

  /**
   * Whether another invite of the interview holds this interviewee turn, exactly (a duplicate answer).
   * The transcript is JSON text written by JSON.stringify, so the turn's own JSON is a substring of it.
   */
  async answerElsewhere(db: EntityManager, interviewID: string, linkID: string, answer: string): Promise<boolean> {
    const turn = JSON.stringify({ role: 'interviewee', content: answer });
    const rows = await db.query<unknown[]>('SELECT 1 AS found FROM invites WHERE interview_id = ? AND link_id <> ? AND answer_count > 0 AND INSTR(conversation, ?) > 0 LIMIT 1', [
      interviewID,
      linkID,
      turn,
    ]);
    return rows.length > 0;
  }

  /** Whether another invite of the interview, started before, was started with this e-mail address (any case). */
  async emailElsewhere(db: EntityManager, interviewID: string, linkID: string, email: string): Promise<boolean> {
    const needle = `"email":${JSON.stringify(email)}`.toLowerCase();
    const rows = await db.query<unknown[]>(
      'SELECT 1 AS found FROM invites WHERE interview_id = ? AND link_id <> ? AND started_on IS NOT NULL AND INSTR(LOWER(user_info), ?) > 0 LIMIT 1',
      [interviewID, linkID, needle],
    );
    return rows.length > 0;
  }

  /** A new invite of the open link, in the status its arrival decided. */
  async insertOpen(db: EntityManager, row: OpenInviteRow): Promise<void> {
    const at = sqlDate(row.createdAt);
    await db.query(
      'INSERT INTO invites (link_id, interview_id, product_id, org_id, created_at, updated_at, expires_on, user_info, status, completed_on, conversation, turn_meta, ' +
        "source, participant_id, passthrough, screener, segment, quota_cells) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, '[]', '[]', 'open', ?, ?, ?, ?, ?)",
      [
        row.linkID,
        row.interviewID,
        row.productID,
        row.orgID,
        at,
        at,
        sqlDate(row.expiresAt),
        row.status,
        row.participantID,
        JSON.stringify(row.passthrough),
        JSON.stringify(row.screener),
        row.segment,
        row.quotaCells,
      ],
    );
  }

  /** The invites as their webhook events show them now, with their products' owners. */
  async eventRows(db: EntityManager, linkIDs: readonly string[]): Promise<InviteEventRow[]> {
    const out: InviteEventRow[] = [];
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      const ids = linkIDs.slice(i, i + IN_CHUNK);
      const rows = await db.query<(Omit<InviteEventRow, 'owner'> & { ownerOrgID: string | null; ownerUserID: string | null })[]>(
        'SELECT i.link_id AS linkID, i.interview_id AS interviewID, i.product_id AS productID, i.org_id AS orgID, i.status AS status, ' +
          `i.completed_on AS completedOn, p.org_id AS ownerOrgID, p.user_id AS ownerUserID FROM invites i INNER JOIN products p ON p.id = i.product_id WHERE i.link_id IN ${inList(ids.length)}`,
        ids,
      );
      for (const { ownerOrgID, ownerUserID, ...row } of rows) out.push({ ...row, owner: { orgID: ownerOrgID, userID: ownerUserID } });
    }
    return out;
  }
}
