import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { KeysetList, SqlWhere } from '../common/keyset';
import { FOR_UPDATE_SQL, sqlDate } from '../database/column-types';
import { Interview } from './interview.entity';

/** An interview as the API shows it. */
export interface InterviewRow {
  interviewID: string;
  productID: string;
  interviewName: string;
  guidelines: string | null;
  userID: string | null;
  interviewer: string;
  /** Null: `auto`. */
  language: string | null;
  publicTitle: string | null;
  consentText: string | null;
  completionRedirectUrl: string | null;
}

/** An interview with its product's owners, which decide who may see it. */
export interface OwnedInterview {
  interview: InterviewRow;
  owner: Owned;
}

type FieldworkFields = 'language' | 'publicTitle' | 'consentText' | 'completionRedirectUrl';
/** A new interview: the fieldwork settings are optional (null: the defaults). */
export type NewInterviewRow = Omit<InterviewRow, FieldworkFields> & Partial<Pick<InterviewRow, FieldworkFields>>;

export type InterviewListRow = InterviewRow & { createdAt: Date | string };

/** The fields of an interview an update may change. */
export type InterviewChanges = Partial<Pick<InterviewRow, 'productID' | 'interviewName' | 'guidelines' | 'userID' | 'interviewer' | 'language' | 'publicTitle' | 'consentText' | 'completionRedirectUrl'>>;

const COLUMNS = 'i.id AS interviewID, i.product_id AS productID, i.name AS interviewName, i.guidelines AS guidelines, i.user_id AS userID, i.interviewer AS interviewer, ' +
  'i.language AS language, i.public_title AS publicTitle, i.consent_text AS consentText, i.completion_redirect_url AS completionRedirectUrl';
const COLUMN_OF: Record<keyof InterviewChanges, string> = { productID: 'product_id', interviewName: 'name', guidelines: 'guidelines', userID: 'user_id', interviewer: 'interviewer',
  language: 'language',
  publicTitle: 'public_title',
  consentText: 'consent_text',
  completionRedirectUrl: 'completion_redirect_url',
};

/** The interviews table (see ProductsRepository for why reads are plain SQL). */
@Injectable()
export class InterviewsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The interview with its product's owners. With `lock` (inside a transaction) the interview row is
   * locked until the transaction ends, on MySQL, so that no invite slips in meanwhile.
   */
  async findOwned(interviewID: string, options: { db?: EntityManager; lock?: boolean } = {}): Promise<OwnedInterview | undefined> {
    const db = options.db ?? this.dataSource.manager;
    if (options.lock) {
      // Only the interview row is locked: the product is read apart.
      const [interview] = await db.query<InterviewRow[]>(`SELECT ${COLUMNS} FROM interviews i WHERE i.id = ?${FOR_UPDATE_SQL}`, [interviewID]);
      if (!interview) return undefined;
      const [owner] = await db.query<Owned[]>('SELECT org_id AS orgID, user_id AS userID FROM products WHERE id = ?', [interview.productID]);
      return owner && { interview, owner };
    }
    const [row] = await db.query<(InterviewRow & { ownerOrgID: string | null; ownerUserID: string | null })[]>(
      `SELECT ${COLUMNS}, p.org_id AS ownerOrgID, p.user_id AS ownerUserID FROM interviews i INNER JOIN products p ON p.id = i.product_id WHERE i.id = ?`,
      [interviewID],
    );
    if (!row) return undefined;
    const { ownerOrgID, ownerUserID, ...interview } = row;
    return { interview, owner: { orgID: ownerOrgID, userID: ownerUserID } };
  }

  async insert(interviews: NewInterviewRow[], now: Date, db: EntityManager = this.dataSource.manager): Promise<void> {
    if (interviews.length === 0) return;
    await db.getRepository(Interview).insert(
      interviews.map((i) => ({ language: null, publicTitle: null, consentText: null, completionRedirectUrl: null, ...i, createdAt: now, updatedAt: now })),
    );
  }

  async update(interviewID: string, changes: InterviewChanges, now: Date, db: EntityManager): Promise<void> {
    const fields = Object.keys(changes) as (keyof InterviewChanges)[];
    if (fields.length === 0) return;
    await db.query(`UPDATE interviews SET ${fields.map((f) => `${COLUMN_OF[f]} = ?`).join(', ')}, updated_at = ? WHERE id = ?`, [
      ...fields.map((f) => changes[f] ?? null),
      sqlDate(now),
      interviewID,
    ]);
  }

  /** Whether the interview has any invite (it may then not move to another product). */
  async hasInvites(interviewID: string, db: EntityManager): Promise<boolean> {
    const rows = await db.query<unknown[]>('SELECT 1 AS yes FROM invites WHERE interview_id = ? LIMIT 1', [interviewID]);
    return rows.length > 0;
  }

  list(productID: string): KeysetList<InterviewListRow> {
    return new KeysetList<InterviewListRow>({
      query: (sql, params) => this.dataSource.query(sql, params),
      columns: `${COLUMNS}, i.created_at AS createdAt`,
      from: 'interviews i',
      where: new SqlWhere().and('i.product_id = ?', productID),
      keys: { created: 'i.created_at', id: 'i.id' },
      idOf: (r) => r.interviewID,
    });
  }
}
