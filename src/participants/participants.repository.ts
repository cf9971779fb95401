import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { InviteAudio } from '../invites/invite-audio.entity';
import { Invite } from '../invites/invite.entity';
import type { Owned } from '../access/access-rule';
import type { InviteRow } from '../invites/invites.repository';
import { IN_CHUNK } from '../common/limits';
import { KeysetList, SqlCondition, SqlWhere } from '../common/keyset';
import { FOR_UPDATE_SKIP_LOCKED_SQL, FOR_UPDATE_SQL, affectedRows, sqlDate } from '../database/column-types';

const inList = (n: number) => `(${new Array<string>(n).fill('?').join(', ')})`;

/** Whose interviewees: an organization, or (for invites without one) the user owning the product, as profiles are kept. */
export type DataOwner = { kind: 'org'; id: string } | { kind: 'user'; id: string };

export function ownerKeyOf(owner: DataOwner): string {
  return `${owner.kind}:${owner.id}`;
}

/** An invite as an erasure or an export finds it: the person's data still as text, and who sees its product. */
export interface PersonInviteRow extends InviteRow {
  productOrgID: string | null;
  productUserID: string | null;
}

/** A finished invite the retention sweep found due. */
export interface DueInviteRow {
  linkID: string;
  interviewID: string;
  productID: string;
  orgID: string | null;
  productOrgID: string | null;
  productUserID: string | null;
  userInfo: string | null;
}

export interface ErasureRow {
  erasureID: string;
  createdAt: Date | string;
  erasedBy: string;
  emailSha256: string;
  invites: number;
  profiles: number;
  reports: number;
}

export interface NewErasure {
  erasureID: string;
  owner: DataOwner;
  by: string;
  emailSha256: string;
  invites: number;
  profiles: number;
  reports: number;
}

const INVITE_COLUMNS =
  'i.link_id AS linkID, i.interview_id AS interviewID, i.product_id AS productID, i.org_id AS orgID, i.user_info AS userInfo, i.status AS status, ' +
  'i.created_at AS createdAt, i.completed_on AS completedOn, i.expires_on AS expiresAt, i.conversation AS conversation, ' +
  'i.source AS source, i.participant_id AS participantID, i.segment AS segment, i.passthrough AS passthrough, i.screener AS screener, i.quality AS quality, ' +
  'p.org_id AS productOrgID, p.user_id AS productUserID';

/** The statuses after which nothing more happens to an invite: what retention may erase. */
export const FINISHED_STATUSES = ['completed', 'abandoned', 'expired', 'revoked', 'screenedout', 'overquota'] as const;

/**
 * The SQL of the data rights: finding a person's invites and profiles within an owner, erasing them,
 * taking their quotes out of reports, the audit of erasures, and the retention sweep's claim. It works
 * across the invites, profiles and reports tables because an erasure must reach all of them in one
 * transaction.
 */
@Injectable()
export class ParticipantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The owner's unerased invites whose userInfo mentions the address (lower-cased), oldest first; the
   * caller checks the email field itself. With `lock`, locked until the transaction ends (MySQL).
   */
  async invitesMentioning(db: EntityManager, owner: DataOwner, email: string, lock: boolean): Promise<PersonInviteRow[]> {
    const ownerSql = owner.kind === 'org' ? 'i.org_id = ?' : 'i.org_id IS NULL AND p.user_id = ?';
    // The address is looked for in the stored JSON as JSON writes it; LOWER() makes the match case-insensitive.
    const needle = JSON.stringify(email).slice(1, -1);
    return db.query<PersonInviteRow[]>(
      `SELECT ${INVITE_COLUMNS} FROM invites i INNER JOIN products p ON p.id = i.product_id ` +
        `WHERE ${ownerSql} AND i.user_info IS NOT NULL AND INSTR(LOWER(i.user_info), ?) > 0 ORDER BY i.created_at, i.link_id${lock ? FOR_UPDATE_SQL : ''}`,
      [owner.id, needle],
    );
  }

  /** Clears the invites' person and transcript, deletes the recordings kept of their answers, and marks them erased. */
  async eraseInvites(db: EntityManager, linkIDs: readonly string[], now: Date): Promise<void> {
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      const ids = linkIDs.slice(i, i + IN_CHUNK);
      await db.getRepository(InviteAudio).delete({ linkID: In(ids) });
      await db.query(
        // The panel's id, its passthrough values and the screener's answers are the person's too (the segment and quality stay: no one is in them).
        'UPDATE invites SET user_info = NULL, conversation = \'[]\', turn_meta = \'[]\', answer_count = 0, participant_id = NULL, passthrough = NULL, screener = NULL, ' +
          `erased_on = ?, updated_at = ? WHERE link_id IN ${inList(ids.length)}`,
        [sqlDate(now), sqlDate(now), ...ids],
      );
    }
  }

  /** The interviewee turns and the given name of each invite, in the caller's transaction (an erasure's, before it clears them). */
  async whatTheySaid(db: EntityManager, linkIDs: readonly string[]): Promise<Map<string, { answers: string[]; name: string | null }>> {
    const out = new Map<string, { answers: string[]; name: string | null }>();
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      const invites = await db.getRepository(Invite).find({ select: { linkID: true, conversation: true, userInfo: true }, where: { linkID: In(linkIDs.slice(i, i + IN_CHUNK)) } });
      for (const invite of invites) {
        out.set(invite.linkID, { answers: invite.conversation.filter((turn) => turn.role === 'interviewee').map((turn) => turn.content), name: invite.userInfo?.name ?? null });
      }
    }
    return out;
  }

  /** The owner's profile of this address (lower-cased), with its products and their owners. */
  async profileOf(db: EntityManager, owner: DataOwner, email: string): Promise<{ profileID: string; products: (Owned & { productID: string })[] } | undefined> {
    const [row] = await db.query<{ profileID: string }[]>(`SELECT id AS profileID FROM profiles WHERE owner_key = ? AND email = ?${FOR_UPDATE_SQL}`, [ownerKeyOf(owner), email]);
    if (!row) return undefined;
    const products = await db.query<(Owned & { productID: string })[]>(
      'SELECT p.id AS productID, p.org_id AS orgID, p.user_id AS userID FROM profile_products pp INNER JOIN products p ON p.id = pp.product_id WHERE pp.profile_id = ? ORDER BY p.created_at, p.id',
      [row.profileID],
    );
    return { profileID: row.profileID, products };
  }

  async deleteProfile(db: EntityManager, profileID: string): Promise<number> {
    await db.query('DELETE FROM profile_products WHERE profile_id = ?', [profileID]);
    return affectedRows(db, 'DELETE FROM profiles WHERE id = ?', [profileID]);
  }

  async insertErasure(db: EntityManager, e: NewErasure, now: Date): Promise<void> {
    await db.query(
      'INSERT INTO erasures (id, org_id, user_id, erased_by, email_sha256, invites, profiles, reports, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [e.erasureID, e.owner.kind === 'org' ? e.owner.id : null, e.owner.kind === 'user' ? e.owner.id : null, e.by, e.emailSha256, e.invites, e.profiles, e.reports, sqlDate(now)],
    );
  }

  /** Erasures of an organization and/or a user, within what the caller may see, in the lists' order. */
  listErasures(filter: { orgID?: string; userID?: string }, scope: SqlCondition | undefined): KeysetList<ErasureRow> {
    const where = new SqlWhere();
    if (filter.orgID !== undefined) where.and('e.org_id = ?', filter.orgID);
    if (filter.userID !== undefined) where.and('e.user_id = ?', filter.userID);
    if (scope) where.and(scope);
    return new KeysetList<ErasureRow>({
      query: (sql, params) => this.dataSource.query(sql, params),
      columns:
        'e.id AS erasureID, e.created_at AS createdAt, e.erased_by AS erasedBy, e.email_sha256 AS emailSha256, e.invites AS invites, e.profiles AS profiles, e.reports AS reports',
      from: 'erasures e',
      where,
      keys: { created: 'e.created_at', id: 'e.id' },
      idOf: (r) => r.erasureID,
    });
  }

  /** The name of the token erasing (the audit's "by"). */
  async tokenName(tokenID: string): Promise<string | null> {
    const [row] = await this.dataSource.query<{ name: string | null }[]>('SELECT name FROM api_tokens WHERE id = ?', [tokenID]);
    return row?.name ?? null;
  }

  /**
   * Up to `limit` finished, unerased invites last changed on or before `cutoff`, of interviews kept
   * `days` days (null: interviews without their own retentionDays), locked; on MySQL each instance takes
   * rows the others have not locked (SKIP LOCKED).
   */
  async lockDueForRetention(db: EntityManager, days: number | null, cutoff: Date, limit: number): Promise<DueInviteRow[]> {
    return db.query<DueInviteRow[]>(
      'SELECT i.link_id AS linkID, i.interview_id AS interviewID, i.product_id AS productID, i.org_id AS orgID, p.org_id AS productOrgID, ' +
        'p.user_id AS productUserID, i.user_info AS userInfo FROM invites i ' +
        'INNER JOIN interviews iv ON iv.id = i.interview_id INNER JOIN products p ON p.id = i.product_id ' +
        `WHERE i.status IN ${inList(FINISHED_STATUSES.length)} AND i.updated_at <= ? AND i.erased_on IS NULL AND iv.retention_days ${days === null ? 'IS NULL' : '= ?'} ` +
        `ORDER BY i.updated_at LIMIT ?${FOR_UPDATE_SKIP_LOCKED_SQL}`,
      [...FINISHED_STATUSES, sqlDate(cutoff), ...(days === null ? [] : [days]), limit],
    );
  }

  /** The retention periods interviews set for themselves. */
  async retentionPeriods(): Promise<number[]> {
    const rows = await this.dataSource.query<{ days: number | string }[]>('SELECT DISTINCT retention_days AS days FROM interviews WHERE retention_days IS NOT NULL');
    return rows.map((r) => Number(r.days));
  }
}
