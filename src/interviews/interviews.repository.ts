import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { KeysetList, SqlWhere } from '../common/keyset';
import { FOR_UPDATE_SQL, sqlDate } from '../database/column-types';
import type { InterviewMode } from '../voice/voice.limits';
import { Interview } from './interview.entity';

/** An interview as the API shows it. */
export interface InterviewRow {
  interviewID: string;
  productID: string;
  interviewName: string;
  guidelines: string | null;
  /** The guidelines in other languages, by tag; null: none. */
  translations: Translations | null;
  userID: string | null;
  interviewer: string;
  /** Null: `auto`. */
  language: string | null;
  publicTitle: string | null;
  consentText: string | null;
  completionRedirectUrl: string | null;
  retentionDays: number | null;
  redactPII: boolean;
  mode: InterviewMode;
  keepAudio: boolean;
}

/** The guidelines in other languages: `{tag: guidelines text}`. */
export type Translations = Record<string, string>;

/** The stored JSON text of translations as an object (null stays null). */
export function parseTranslations(raw: string | Translations | null | undefined): Translations | null {
  if (raw === null || raw === undefined) return null;
  return typeof raw === 'string' ? (JSON.parse(raw) as Translations) : raw;
}

/** An interview with its product's owners, which decide who may see it. */
export interface OwnedInterview {
  interview: InterviewRow;
  owner: Owned;
}

type OptionalSettings = 'translations' | 'language' | 'publicTitle' | 'consentText' | 'completionRedirectUrl' | 'retentionDays' | 'redactPII' | 'mode' | 'keepAudio';
/** A new interview: the fieldwork and data-rights settings are optional (the defaults). */
export type NewInterviewRow = Omit<InterviewRow, OptionalSettings> & Partial<Pick<InterviewRow, OptionalSettings>>;

export type InterviewListRow = InterviewRow & { createdAt: Date | string };

/** The fields of an interview an update may change. */
export type InterviewChanges = Partial<
  Pick<
    InterviewRow,
    'productID' | 'interviewName' | 'guidelines' | 'translations' | 'userID' | 'interviewer' | 'language' | 'publicTitle' | 'consentText' | 'completionRedirectUrl' | 'retentionDays' | 'redactPII' | 'mode' | 'keepAudio'
  >
>;

const COLUMNS =
  'i.id AS interviewID, i.product_id AS productID, i.name AS interviewName, i.guidelines AS guidelines, i.translations AS translations, i.user_id AS userID, i.interviewer AS interviewer, ' +
  'i.language AS language, i.public_title AS publicTitle, i.consent_text AS consentText, i.completion_redirect_url AS completionRedirectUrl, ' +
  'i.retention_days AS retentionDays, i.redact_pii AS redactPII, i.mode AS mode, i.keep_audio AS keepAudio';
const COLUMN_OF: Record<keyof InterviewChanges, string> = {
  productID: 'product_id',
  interviewName: 'name',
  guidelines: 'guidelines',
  translations: 'translations',
  userID: 'user_id',
  interviewer: 'interviewer',
  language: 'language',
  publicTitle: 'public_title',
  consentText: 'consent_text',
  completionRedirectUrl: 'completion_redirect_url',
  retentionDays: 'retention_days',
  redactPII: 'redact_pii',
  mode: 'mode',
  keepAudio: 'keep_audio',
};

/** Both engines hand a boolean column back as 0 or 1, and MySQL may hand integers back as text. */
function normal<T extends InterviewRow>(row: T): T {
  return { ...row, translations: parseTranslations(row.translations), retentionDays: row.retentionDays === null ? null : Number(row.retentionDays), redactPII: Boolean(Number(row.redactPII)), keepAudio: Boolean(Number(row.keepAudio)) };
}

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
      return owner && { interview: normal(interview), owner };
    }
    const [row] = await db.query<(InterviewRow & { ownerOrgID: string | null; ownerUserID: string | null })[]>(
      `SELECT ${COLUMNS}, p.org_id AS ownerOrgID, p.user_id AS ownerUserID FROM interviews i INNER JOIN products p ON p.id = i.product_id WHERE i.id = ?`,
      [interviewID],
    );
    if (!row) return undefined;
    const { ownerOrgID, ownerUserID, ...interview } = row;
    return { interview: normal(interview), owner: { orgID: ownerOrgID, userID: ownerUserID } };
  }

  /** New interviews; unset settings take their defaults: auto language, no public title, consent or redirect, kept (null retention), no redaction, text mode. */
  async insert(interviews: NewInterviewRow[], now: Date, db: EntityManager = this.dataSource.manager): Promise<void> {
    if (interviews.length === 0) return;
    await db.getRepository(Interview).insert(
      interviews.map((i) => ({ translations: null, language: null, publicTitle: null, consentText: null, completionRedirectUrl: null, retentionDays: null, redactPII: false, mode: 'text' as const, keepAudio: false, ...i, createdAt: now, updatedAt: now })),
    );
  }

  async update(interviewID: string, changes: InterviewChanges, now: Date, db: EntityManager): Promise<void> {
    const fields = Object.keys(changes) as (keyof InterviewChanges)[];
    if (fields.length === 0) return;
    await db.query(`UPDATE interviews SET ${fields.map((f) => `${COLUMN_OF[f]} = ?`).join(', ')}, updated_at = ? WHERE id = ?`, [
      // better-sqlite3 binds no booleans: 1 or 0 on both engines.
      ...fields.map((f) => {
        const value = changes[f];
        // Translations are JSON text, as the entity's transformer writes them on insert.
        if (f === 'translations') return value ? JSON.stringify(value) : null;
        return typeof value === 'boolean' ? Number(value) : (value ?? null);
      }),
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
