import { hash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Brackets, In, type DataSource, type EntityManager, type EntityTarget, type ObjectLiteral, type Repository } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { IN_CHUNK } from '../common/limits';
import { KeysetList } from '../common/keyset';
import { FOR_UPDATE, FOR_UPDATE_SQL, forUpdate, hydrated, insertSql, persisted, readProperties, selectList, selectProperties } from '../database/column-types';
import type { WithStoredJson } from '../database/stored-json';
import { Interview } from '../interviews/interview.entity';
import { Product } from '../products/product.entity';
import { Invite, type ConversationTurn, type TurnMeta, type UserInfo } from './invite.entity';
import { InviteAnswerDigest } from './invite-answer-digest.entity';
import { InviteEmailDigest } from './invite-email-digest.entity';
import { isComparable } from '../domain/duplicate-answers';
import { emailSha256, normalEmail } from '../domain/email';
import type { InviteStatus } from '../domain/invite-status';
import type { InviteQuality, ScreenerAnswer } from './invite-quality';
import { transaction } from '../database/transaction';
import type { AnswerSource } from './answer-rows';

/** What the API shows of an invite: its lists read these columns only (turn data, answer counts and the rest stay unread). */
export const INVITE_FIELDS = [
  'linkID',
  'interviewID',
  'productID',
  'orgID',
  'userInfo',
  'status',
  'createdAt',
  'completedOn',
  'expiresAt',
  'conversation',
  'source',
  'participantID',
  'segment',
  'passthrough',
  'screener',
  'quality',
] as const satisfies readonly (keyof Invite)[];

/** An invite as the API shows it. */
export type InviteView = Pick<Invite, (typeof INVITE_FIELDS)[number]>;

/** Its JSON columns, which a list reads as stored (StoredJson): the transcripts go to the response unparsed. */
const INVITE_JSON_FIELDS = ['userInfo', 'conversation', 'passthrough', 'screener', 'quality'] as const satisfies readonly (typeof INVITE_FIELDS)[number][];

export type InviteJsonField = (typeof INVITE_JSON_FIELDS)[number];

/** An invite as its list reads it: InviteView with the JSON columns as stored. */
export type ListedInvite = WithStoredJson<InviteView, InviteJsonField>;

/** An invite with what the interview room reads with it: its interview, its product and its interview's recruitment (if any). */
export type InviteInRoom = Invite & { interview: Interview; product: Product; recruitment: { redirects: Record<string, string | null> } | null };

/**
 * The recruitments' entity, by name: recruitment builds on invites, and importing it here would close
 * a cycle; the room's read only takes its redirects along.
 */
const RECRUITMENT = 'Recruitment';

/** An invite of the open link, as a new arrival of the same participant finds it. */
export type ParticipantInvite = Pick<Invite, 'linkID' | 'status' | 'flagged' | 'passthrough'>;

/** A new invite made by the open link. */
export type NewOpenInvite = Pick<Invite, 'linkID' | 'interviewID' | 'productID' | 'orgID' | 'status' | 'segment' | 'createdAt' | 'expiresAt'> & {
  participantID: string;
  passthrough: Record<string, string>;
  screener: ScreenerAnswer[];
  /** `|quotaID|…|`, or null when the invite is in no quota cell. */
  quotaCells: string | null;
};

/** Places taken in an interview: all of them, and in each quota cell asked about (in the order asked). */
export interface PlacesHeld {
  total: number;
  cells: number[];
}

/** The invite as a change finds it, locked until its transaction ends (MySQL; SQLite has one writer). */
export type InviteState = Pick<Invite, 'linkID' | 'status' | 'conversation' | 'expiresAt'>;

/** What an invite event says, and who owns its product (which webhook endpoints may see it). */
export type InviteEvent = Pick<Invite, 'linkID' | 'interviewID' | 'productID' | 'orgID' | 'status' | 'completedOn'> & { owner: Owned };

/**
 * An invite as its answers are read: with the per-turn data and what the export shows of the person.
 * The transcript and the rest of its JSON stay text, as stored: a report sends its pages to the
 * analysis worker, which parses them there, off the thread that serves requests (OfflineAnalysisRunner);
 * parsed here, they would cost the event loop the parse and a structured clone of every transcript.
 */
export type AnswerSourceRow = Omit<AnswerSource, 'userInfo' | 'conversation' | 'turnMeta'> & { userInfo: string | null; conversation: string; turnMeta: string | null };

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
  /** The whole transcript; the digests of the turns it appends are kept by keepAnswers, in the same transaction. */
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

/** What the room reads of an invite, its interview and its product. */
const ROOM_INVITE_FIELDS = [...INVITE_FIELDS, 'startedOn', 'language', 'turnMeta', 'flagged'] as const satisfies readonly (keyof Invite)[];
const ROOM_INTERVIEW_FIELDS = [
  'interviewID',
  'interviewName',
  'guidelines',
  'translations',
  'interviewer',
  'language',
  'publicTitle',
  'consentText',
  'completionRedirectUrl',
  'redactPII',
  'mode',
  'keepAudio',
] as const satisfies readonly (keyof Interview)[];
const ROOM_PRODUCT_FIELDS = ['productID', 'name', 'desc', 'imageLink', 'userID'] as const satisfies readonly (keyof Product)[];

/** The values of a row whose names start with `prefix`, under their names without it: one joined entity's. */
function prefixed(row: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in row) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = row[key];
  return out;
}

/** The product's owners, as a join selects them: who may see the invite. */
const OWNER_FIELDS = ['p.productID', 'p.orgID', 'p.userID'];

const ownerOf = (product: Product | undefined): Owned => ({ orgID: product?.orgID ?? null, userID: product?.userID ?? null });

/**
 * An interviewee turn's digest: SHA-256 of its content as stored, in hex (AnswerDigests1767600000000
 * writes the same). One-shot crypto.hash, as hashToken: a third of createHash's cost (bench/README.md).
 */
const answerDigest = (content: string): string => hash('sha256', content, 'hex');

/** An e-mail address's digest, the contract's emailSha256 (EmailDigests1767700000000 writes the same); an empty address has none. */
const emailDigest = (email: string): string | null => (normalEmail(email) === '' ? null : emailSha256(email));

/** Rows per INSERT statement: about 13 parameters a row keeps 1,000 rows under SQLite's variable limit (32,766). */
const INSERT_CHUNK = 1000;

/** The invites table: the API's reads, the batch insert, and every change of the invite lifecycle. */
@Injectable()
export class InvitesRepository {
  /**
   * The SQL of the reads measured too hot to build on every call: invites/getOne (a benchmarked
   * operation, whose target is 1.1x the textbook QueryBuilder service) and the room's read, lock and
   * write of each reply. On this machine (SQLite, CPU per call) a QueryBuilder built them in 262 µs
   * rather than 93 (getOne), 556 rather than 116 (the room's read) and 246 rather than 61 (lock and
   * write), most of it building the SQL; MariaDB showed the same. Written once, from the entities'
   * own column names, and read back through the entities' column types (hydrated, persisted).
   */
  private readonly sql: { owned: string; room: string; state: string };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Invite) private readonly invites: Repository<Invite>,
  ) {
    const of = (target: EntityTarget<ObjectLiteral>, alias: string, props: readonly string[], prefix = '') =>
      selectList(dataSource, target, alias, props, prefix);
    this.sql = {
      owned:
        `SELECT ${of(Invite, 'i', INVITE_FIELDS)}, ${of(Product, 'p', ['orgID', 'userID'], 'p_')} ` +
        'FROM invites i INNER JOIN products p ON p.id = i.product_id WHERE i.link_id = ?',
      room:
        `SELECT ${of(Invite, 'i', ROOM_INVITE_FIELDS)}, ${of(Interview, 'iv', ROOM_INTERVIEW_FIELDS, 'iv_')}, ` +
        `${of(Product, 'p', ROOM_PRODUCT_FIELDS, 'p_')}, ${of(RECRUITMENT, 'rc', ['redirects'], 'rc_')} ` +
        'FROM invites i INNER JOIN interviews iv ON iv.id = i.interview_id INNER JOIN products p ON p.id = i.product_id ' +
        'LEFT JOIN recruitments rc ON rc.interview_id = i.interview_id WHERE i.link_id = ?',
      state: `SELECT ${of(Invite, 'i', ['linkID', 'status', 'conversation', 'expiresAt'])} FROM invites i WHERE i.link_id = ?${FOR_UPDATE_SQL}`,
    };
  }

  /** The invite with its product's owners, which decide who may see it. */
  async findOwned(linkID: string): Promise<{ invite: InviteView; owner: Owned } | undefined> {
    const db = this.dataSource.manager;
    const [row] = await db.query<Record<string, unknown>[]>(this.sql.owned, [linkID]);
    if (!row) return undefined;
    const product = hydrated(db, Product, prefixed(row, 'p_'));
    return { invite: hydrated(db, Invite, row), owner: { orgID: product.orgID, userID: product.userID } };
  }

  /**
   * Invites of an interview and/or a product, in the lists' order; read raw, through the column types
   * (selectProperties), the JSON columns left as stored (StoredJson).
   */
  list(filter: { interviewID?: string; productID?: string; segment?: string }): KeysetList<ListedInvite, Invite> {
    return new KeysetList<ListedInvite, Invite>({
      query: () => {
        const query = selectProperties(this.invites.createQueryBuilder('i'), 'i', INVITE_FIELDS);
        if (filter.segment !== undefined) query.andWhere('i.segment = :segment', { segment: filter.segment });
        if (filter.interviewID !== undefined) query.andWhere('i.interviewID = :interviewID', { interviewID: filter.interviewID });
        if (filter.productID !== undefined) query.andWhere('i.productID = :productID', { productID: filter.productID });
        return query;
      },
      keys: { created: 'i.createdAt', id: 'i.linkID' },
      read: readProperties<ListedInvite>(Invite, this.dataSource.manager, { storedJson: INVITE_JSON_FIELDS }),
      keyOf: (invite) => ({ createdAt: invite.createdAt, id: invite.linkID }),
    });
  }

  /**
   * The invites of an interview that hold answers, in the lists' order (creation, then linkID). Invites
   * without one (pending, abandoned) are left out by answer_count, without reading their transcripts.
   * Read raw: see AnswerSourceRow.
   */
  answerSources(interviewID: string, options: { withPerson?: boolean; withFlagged?: boolean } = {}): KeysetList<AnswerSourceRow> {
    return new KeysetList<AnswerSourceRow>({
      query: () => {
        const query = this.invites
          .createQueryBuilder('i')
          .select('i.linkID', 'linkID')
          .addSelect('i.createdAt', 'createdAt')
          .addSelect('i.status', 'status')
          .addSelect('i.startedOn', 'startedOn')
          .addSelect('i.completedOn', 'completedOn')
          .addSelect('i.language', 'language')
          // Without the person (a report's reading): their name and e-mail are not read at all.
          .addSelect(options.withPerson === false ? 'NULL' : 'i.userInfo', 'userInfo')
          .addSelect('i.conversation', 'conversation')
          .addSelect('i.turnMeta', 'turnMeta')
          .where('i.interviewID = :interviewID', { interviewID })
          .andWhere('i.answerCount > 0');
        // A report leaves flagged invites out unless it asked for them (reports/addOne includeFlagged).
        if (options.withFlagged === false) query.andWhere('i.flagged = :flagged', { flagged: false });
        return query;
      },
      keys: { created: 'i.createdAt', id: 'i.linkID' },
      read: async (query) => {
        const db = query.connection.manager;
        // The times as the column type reads them; the JSON stays text.
        return (await query.getRawMany<AnswerSourceRow>()).map((row) => {
          const { createdAt, startedOn, completedOn } = hydrated(db, Invite, { createdAt: row.createdAt, startedOn: row.startedOn, completedOn: row.completedOn });
          return { ...row, createdAt, startedOn, completedOn };
        });
      },
      keyOf: (row) => ({ createdAt: row.createdAt, id: row.linkID }),
    });
  }

  /** The interview's invites counted by status, those ever started, and their answers, as of now. */
  async tally(interviewID: string, options: { withFlagged?: boolean } = {}): Promise<InterviewTally> {
    const query = this.invites
      .createQueryBuilder('i')
      .select('i.status', 'status')
      .addSelect('COUNT(*)', 'n')
      .addSelect('COUNT(i.startedOn)', 'started')
      .addSelect('COALESCE(SUM(i.answerCount), 0)', 'answers')
      .where('i.interviewID = :interviewID', { interviewID })
      .groupBy('i.status');
    if (options.withFlagged === false) query.andWhere('i.flagged = :flagged', { flagged: false });
    const rows = await query.getRawMany<{ status: InviteStatus; n: number | string; started: number | string; answers: number | string }>();
    const tally: InterviewTally = { byStatus: {}, started: 0, answers: 0 };
    // Aggregates are no column: the drivers give them as numbers or (MySQL's SUM) as decimal text.
    for (const r of rows) {
      tally.byStatus[r.status] = Number(r.n);
      tally.started += Number(r.started);
      tally.answers += Number(r.answers);
    }
    return tally;
  }

  /**
   * New pending invites, in one transaction (all or none): one multi-row INSERT per INSERT_CHUNK rows,
   * written here from the entity's column names with the values as its column types store them
   * (persisted), as products/addOne does. Measured need: TypeORM's InsertQueryBuilder (even with
   * updateEntity(false), only these columns named and chunks of 100) spent 40-63 ms building the SQL of
   * 1,000 rows (a parameter per value, each set, looked up and substituted by name) where this takes
   * ~8; createInvites 1000 was 1.36-1.84x ef242af's (MariaDB, sequential A/B medians).
   */
  async insertPending(
    target: { interviewID: string; productID: string; orgID: string | null; segment?: string | null },
    linkIDs: string[],
    createdAt: Date,
    expiresAt: Date,
  ): Promise<void> {
    // Every row is the same but for its linkID: the values are converted by the columns' types once.
    const db = this.dataSource.manager;
    const { columns, params } = persisted(db, Invite, {
      linkID: '',
      interviewID: target.interviewID,
      productID: target.productID,
      orgID: target.orgID,
      segment: target.segment ?? null,
      status: 'pending',
      createdAt,
      updatedAt: createdAt,
      expiresAt,
      userInfo: null,
      completedOn: null,
      conversation: [],
      turnMeta: [],
    });
    const rest = params.slice(1);
    await transaction(this.dataSource, async (tx) => {
      for (let start = 0; start < linkIDs.length; start += INSERT_CHUNK) {
        const chunk = linkIDs.slice(start, start + INSERT_CHUNK);
        const values: unknown[] = [];
        for (const linkID of chunk) values.push(persisted(tx, Invite, { linkID }).params[0], ...rest);
        await tx.query(insertSql(this.dataSource, Invite, columns, chunk.length), values);
      }
    });
  }

  /**
   * An invite with what the interview room shows and what its interviewer agent needs: the interview's
   * name, guidelines and agent, the product's name, description and image, and the product's owning
   * user (the owner of the interviewee's profile when the invite has no organization).
   */
  async findForRoom(linkID: string): Promise<InviteInRoom | undefined> {
    const db = this.dataSource.manager;
    const [row] = await db.query<Record<string, unknown>[]>(this.sql.room, [linkID]);
    if (!row) return undefined;
    const recruitment = prefixed(row, 'rc_');
    return {
      ...hydrated(db, Invite, row),
      interview: hydrated(db, Interview, prefixed(row, 'iv_')),
      product: hydrated(db, Product, prefixed(row, 'p_')),
      // No recruitment: the LEFT JOIN's columns are null, and a recruitment's redirects never are.
      recruitment: recruitment.redirects === null ? null : hydrated<{ redirects: Record<string, string | null> }>(db, RECRUITMENT, recruitment),
    };
  }

  /** The invite as it is now, locked until the transaction ends (on MySQL). */
  async lockState(db: EntityManager, linkID: string): Promise<InviteState | undefined> {
    const [row] = await db.query<Record<string, unknown>[]>(this.sql.state, [linkID]);
    return row && hydrated(db, Invite, row);
  }

  async write(db: EntityManager, linkID: string, patch: InvitePatch, now: Date): Promise<void> {
    const flagged = patch.quality === undefined ? {} : { flagged: patch.quality.flags.length > 0 };
    const { columns, params } = persisted(db, Invite, { ...patch, ...flagged, updatedAt: now });
    await db.query(`UPDATE invites SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE link_id = ?`, [...params, linkID]);
  }

  /**
   * Up to `limit` pending or started invites past expires_on, oldest first, locked; on MySQL each
   * instance takes rows the others have not locked (SKIP LOCKED).
   */
  async lockDueToExpire(db: EntityManager, now: Date, limit: number): Promise<string[]> {
    const query = db
      .getRepository(Invite)
      .createQueryBuilder('i')
      .select('i.linkID')
      .where('i.status IN (:...open)', { open: ['pending', 'started'] })
      .andWhere('i.expiresAt <= :now', { now })
      .orderBy('i.expiresAt')
      .limit(limit);
    return (await forUpdate(query, { skipLocked: true }).getMany()).map((invite) => invite.linkID);
  }

  /** Expires those of the invites that are still pending or started. */
  async expireMany(db: EntityManager, linkIDs: string[], now: Date): Promise<void> {
    await db.getRepository(Invite).update({ linkID: In(linkIDs), status: In(['pending', 'started']) }, { status: 'expired', updatedAt: now });
  }

  /**
   * Which of these invites have been erased, their rows locked (MySQL) until the caller's transaction
   * ends: a report storing quotes of them waits for an erasure under way, and one that starts after
   * waits for the report and then finds its quotes to take out.
   */
  async erasedAmong(db: EntityManager, linkIDs: readonly string[]): Promise<Set<string>> {
    const erased = new Set<string>();
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      const invites = await db.getRepository(Invite).find({
        select: { linkID: true, erasedOn: true },
        where: { linkID: In(linkIDs.slice(i, i + IN_CHUNK)) },
        order: { linkID: 'ASC' },
        ...FOR_UPDATE,
      });
      for (const invite of invites) if (invite.erasedOn !== null) erased.add(invite.linkID);
    }
    return erased;
  }

  /** The open link's invite of a participant in an interview, if the participant came before. */
  async findByParticipant(interviewID: string, participantID: string, db: EntityManager = this.dataSource.manager): Promise<ParticipantInvite | undefined> {
    const invite = await db.getRepository(Invite).findOne({ select: { linkID: true, status: true, flagged: true, passthrough: true }, where: { interviewID, participantID } });
    return invite ?? undefined;
  }

  /**
   * The places taken in an interview, under the caller's lock on its recruitment: invites completed, or
   * started and not yet ended, and the open link's pending invites made since `holdSince` (people on
   * their way to the consent); in all, and in each of `cells` (quota IDs). `except` is left out (the
   * invite asking for its own place).
   */
  async placesHeld(db: EntityManager, interviewID: string, cells: readonly string[], holdSince: Date, except: string | null = null): Promise<PlacesHeld> {
    const query = db.getRepository(Invite).createQueryBuilder('i').select('COUNT(*)', 'total');
    // INSTR on both engines: quota IDs hold no LIKE wildcards to escape, and `|` delimits them exactly.
    cells.forEach((cell, k) => query.addSelect(`SUM(CASE WHEN INSTR(i.quotaCells, :cell${k}) > 0 THEN 1 ELSE 0 END)`, `c${k}`).setParameter(`cell${k}`, `|${cell}|`));
    query
      .where('i.interviewID = :interviewID', { interviewID })
      .andWhere(
        new Brackets((held) =>
          held
            .where('i.status IN (:...taken)', { taken: ['started', 'completed'] })
            .orWhere("(i.status = 'pending' AND i.source = 'open' AND i.createdAt > :holdSince)", { holdSince }),
        ),
      );
    if (except !== null) query.andWhere('i.linkID <> :except', { except });
    const row = await query.getRawOne<Record<string, number | string | null>>();
    // Aggregates are no column: the drivers give them as numbers or (MySQL's SUM) as decimal text.
    return { total: Number(row?.total ?? 0), cells: cells.map((_, k) => Number(row?.[`c${k}`] ?? 0)) };
  }

  /** The quota cells an invite holds a place in (none: []). */
  async quotaCellsOf(db: EntityManager, linkID: string): Promise<string[]> {
    const invite = await db.getRepository(Invite).findOne({ select: { linkID: true, quotaCells: true }, where: { linkID } });
    return (invite?.quotaCells ?? '').split('|').filter((cell) => cell.length > 0);
  }

  /**
   * Keeps the digest of each interviewee turn among `conversation`'s turns from index `from` on (the
   * ones a change appends), in the change's transaction: what answerElsewhere looks up. Only of answers
   * long enough to be compared (isComparable): a shorter one can never equal a compared one, and most
   * replies then write nothing more.
   */
  async keepAnswers(db: EntityManager, invite: { linkID: string; interviewID: string }, conversation: readonly ConversationTurn[], from: number): Promise<void> {
    const digests: InviteAnswerDigest[] = [];
    for (let turnIndex = from; turnIndex < conversation.length; turnIndex++) {
      const turn = conversation[turnIndex];
      if (turn.role === 'interviewee' && isComparable(turn.content)) digests.push({ linkID: invite.linkID, interviewID: invite.interviewID, turnIndex, digest: answerDigest(turn.content) });
    }
    if (digests.length > 0) await db.createQueryBuilder().insert().into(InviteAnswerDigest).values(digests).updateEntity(false).execute();
  }

  /**
   * Whether another invite of the interview holds this interviewee turn, exactly (a duplicate answer):
   * one lookup of the kept digests, where a scan of the interview's transcripts would grow with them.
   */
  async answerElsewhere(db: EntityManager, interviewID: string, linkID: string, answer: string): Promise<boolean> {
    return db
      .getRepository(InviteAnswerDigest)
      .createQueryBuilder('d')
      .where('d.interviewID = :interviewID AND d.digest = :digest AND d.linkID <> :linkID', { interviewID, digest: answerDigest(answer), linkID })
      .getExists();
  }

  /**
   * Keeps the digest of the address an invite starts with, in the start's transaction (after its own
   * check, which must not find it): what emailElsewhere looks up. An empty address keeps nothing.
   */
  async keepEmail(db: EntityManager, invite: { linkID: string; interviewID: string }, email: string): Promise<void> {
    const digest = emailDigest(email);
    if (digest !== null) await db.createQueryBuilder().insert().into(InviteEmailDigest).values({ linkID: invite.linkID, interviewID: invite.interviewID, digest }).updateEntity(false).execute();
  }

  /**
   * Whether another invite of the interview, started before, was started with this e-mail address
   * (trimmed, any case) and its person not erased since: one lookup of the kept digests, where a scan
   * of the userInfo of the interview's started invites grew with them.
   */
  async emailElsewhere(db: EntityManager, interviewID: string, linkID: string, email: string): Promise<boolean> {
    const digest = emailDigest(email);
    if (digest === null) return false;
    return db
      .getRepository(InviteEmailDigest)
      .createQueryBuilder('d')
      .where('d.interviewID = :interviewID AND d.digest = :digest AND d.linkID <> :linkID', { interviewID, digest, linkID })
      .getExists();
  }

  /** A new invite of the open link, in the status its arrival decided. */
  async insertOpen(db: EntityManager, invite: NewOpenInvite): Promise<void> {
    await this.insert(db, [{ ...invite, source: 'open', updatedAt: invite.createdAt, userInfo: null, completedOn: null, conversation: [], turnMeta: [] }]);
  }

  /** The invites as their webhook events show them now, with their products' owners. */
  async eventRows(db: EntityManager, linkIDs: readonly string[]): Promise<InviteEvent[]> {
    const out: InviteEvent[] = [];
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      const invites = await db
        .getRepository(Invite)
        .createQueryBuilder('i')
        .innerJoin('i.product', 'p')
        .select(['i.linkID', 'i.interviewID', 'i.productID', 'i.orgID', 'i.status', 'i.completedOn', ...OWNER_FIELDS])
        .where('i.linkID IN (:...ids)', { ids: linkIDs.slice(i, i + IN_CHUNK) })
        .getMany();
      for (const { product, ...invite } of invites) out.push({ ...invite, owner: ownerOf(product) });
    }
    return out;
  }

  /**
   * One multi-row INSERT. The rows are not read back: nothing is generated, and MySQL (which returns
   * nothing) would otherwise be asked for the defaulted columns of every row.
   */
  private async insert(db: EntityManager, invites: Partial<Invite>[]): Promise<void> {
    await db.createQueryBuilder().insert().into(Invite).values(invites).updateEntity(false).execute();
  }
}
