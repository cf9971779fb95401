import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { PagedList } from '../common/keyset';
import { IN_CHUNK } from '../common/limits';
import { ReportCode } from './report-code.entity';
import type { CodedAnswer } from './report-codes';

/**
 * Rows per INSERT: 10 parameters each stay far under SQLite's variable limit, and 200 answers of the
 * room's longest (4,000 characters) stay under MySQL's smallest max_allowed_packet.
 */
const INSERT_ROWS = 200;

/** Where a page of codes ended: the last row's place in the report. Opaque to clients, like every cursor. */
export function encodeCodeCursor(seq: number): string {
  return Buffer.from(JSON.stringify(['c', seq]), 'utf8').toString('base64url');
}

export function decodeCodeCursor(cursor: string): number {
  try {
    const [tag, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (tag !== 'c' || !Number.isInteger(seq) || (seq as number) < 0) throw new Error('shape');
    return seq as number;
  } catch {
    throw new BadRequestException('cursor is not valid');
  }
}

/** Which of a report's codes a list reads. */
export interface CodeFilter {
  questionIndex?: number;
  /** Rows coded with this theme (of their question, or `all-t<n>` across the interview). */
  themeID?: string;
}

/** The report_codes table: written when a report completes, paged by getCodes, edited by erasures. */
@Injectable()
export class ReportCodesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The report's codes, numbered in their order (seq from 1), in the caller's transaction. */
  async insert(db: EntityManager, reportID: string, codes: readonly CodedAnswer[]): Promise<void> {
    const repo = db.getRepository(ReportCode);
    for (let from = 0; from < codes.length; from += INSERT_ROWS) {
      await repo.insert(
        codes.slice(from, from + INSERT_ROWS).map((code, i) => ({
          reportID,
          seq: from + i + 1,
          linkID: code.linkID,
          turnIndex: code.turnIndex,
          questionIndex: code.questionIndex,
          themeIDs: code.themeIDs,
          acrossThemeIDs: code.acrossThemeIDs,
          answer: code.answer,
          words: code.words,
          sentiment: code.sentiment,
        })),
      );
    }
  }

  /** A report's codes in their order, filtered, as a list that pages (getCodes). */
  list(reportID: string, filter: CodeFilter, db: EntityManager = this.dataSource.manager): PagedList<ReportCode> {
    const query = () => this.filtered(db, reportID, filter);
    return {
      page: async (limit, cursor) => {
        const qb = query().orderBy('c.seq', 'ASC').take(limit + 1);
        if (cursor !== undefined) qb.andWhere('c.seq > :after', { after: decodeCodeCursor(cursor) });
        const rows = await qb.getMany();
        if (rows.length <= limit) return { rows };
        rows.length = limit;
        return { rows, next: encodeCodeCursor(rows[limit - 1].seq) };
      },
      countUpTo: () => query().getCount(),
    };
  }

  private filtered(db: EntityManager, reportID: string, filter: CodeFilter): SelectQueryBuilder<ReportCode> {
    const qb = db.getRepository(ReportCode).createQueryBuilder('c').where('c.report_id = :reportID', { reportID });
    if (filter.questionIndex !== undefined) qb.andWhere('c.question_index = :questionIndex', { questionIndex: filter.questionIndex });
    // The lists are JSON text of identifiers (letters, digits, "-"): the quoted identifier matches it and nothing longer.
    if (filter.themeID !== undefined) {
      qb.andWhere(`c.${filter.themeID.startsWith('all-') ? 'across_theme_ids' : 'theme_ids'} LIKE :theme`, { theme: `%${JSON.stringify(filter.themeID)}%` });
    }
    return qb;
  }

  /** Up to `limit` answers of each of the report's themes, in the report's order: what the shared page shows under them. */
  async firstOfThemes(reportID: string, themeIDs: readonly string[], limit: number): Promise<Map<string, ReportCode[]>> {
    const out = new Map<string, ReportCode[]>();
    for (const themeID of themeIDs) {
      const qb = this.filtered(this.dataSource.manager, reportID, { themeID }).orderBy('c.seq', 'ASC').take(limit);
      out.set(themeID, await qb.getMany());
    }
    return out;
  }

  /** The report's codes of these invites, in the caller's transaction (an erasure's: they are about to go). */
  async ofLinks(db: EntityManager, reportID: string, linkIDs: readonly string[]): Promise<ReportCode[]> {
    const out: ReportCode[] = [];
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      out.push(...(await db.getRepository(ReportCode).find({ where: { reportID, linkID: In(linkIDs.slice(i, i + IN_CHUNK)) }, order: { seq: 'ASC' } })));
    }
    return out;
  }

  async deleteLinks(db: EntityManager, reportID: string, linkIDs: readonly string[]): Promise<void> {
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) await db.getRepository(ReportCode).delete({ reportID, linkID: In(linkIDs.slice(i, i + IN_CHUNK)) });
  }

  /** Whether the report has any code (a report made before answers were coded has none). */
  async hasCodes(db: EntityManager, reportID: string): Promise<boolean> {
    return (await db.getRepository(ReportCode).count({ where: { reportID }, take: 1 })) > 0;
  }

  /** Every code of the report, a page at a time in the report's order, in the caller's transaction: what a recount reads. */
  async *pages(db: EntityManager, reportID: string, perPage = 1000): AsyncGenerator<ReportCode[]> {
    for (let after = 0; ; ) {
      const rows = await db
        .getRepository(ReportCode)
        .createQueryBuilder('c')
        .where('c.report_id = :reportID AND c.seq > :after', { reportID, after })
        .orderBy('c.seq', 'ASC')
        .take(perPage)
        .getMany();
      if (rows.length > 0) yield rows;
      if (rows.length < perPage) return;
      after = rows[rows.length - 1].seq;
    }
  }
}
