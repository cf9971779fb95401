import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { PagedList } from '../common/keyset';
import { IN_CHUNK } from '../common/limits';
import { ReportCode } from './report-code.entity';
import type { CodedAnswer } from './report-codes';

/**
 * Rows per INSERT at most (10 parameters each: far under SQLite's variable limit), and text per INSERT at
 * most (answers are up to 4 bytes a character in UTF-8), so that a statement stays well under MySQL's
 * smallest max_allowed_packet (4 MB) whatever the answers' length.
 */
const INSERT_ROWS = 1000;
const INSERT_TEXT_BYTES = 2 * 1024 * 1024;
const INSERT_SQL = 'INSERT INTO report_codes (report_id, seq, link_id, turn_index, question_index, theme_ids, across_theme_ids, answer, words, sentiment) VALUES ';
const ROW_SQL = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

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

  /**
   * The report's codes, numbered in their order (seq from 1), in the caller's transaction. Plain
   * multi-row INSERTs rather than the Repository's insert: that one prepares every row through the
   * entity's metadata, several times slower for a large report, and this runs inside the
   * transaction that stores it.
   */
  async insert(db: EntityManager, reportID: string, codes: readonly CodedAnswer[]): Promise<void> {
    for (let from = 0; from < codes.length; ) {
      const params: unknown[] = [];
      let rows = 0;
      for (let bytes = 0; from + rows < codes.length && rows < INSERT_ROWS && (rows === 0 || bytes < INSERT_TEXT_BYTES); rows++) {
        const code = codes[from + rows];
        bytes += code.answer.length * 4;
        params.push(reportID, from + rows + 1, code.linkID, code.turnIndex, code.questionIndex, JSON.stringify(code.themeIDs), JSON.stringify(code.acrossThemeIDs), code.answer, code.words, code.sentiment);
      }
      await db.query(`${INSERT_SQL}${new Array<string>(rows).fill(ROW_SQL).join(', ')}`, params);
      from += rows;
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
      // A plain COUNT(*) over the index: getCount() counts DISTINCT concatenated keys of a composite primary key.
      countUpTo: async () => Number((await query().select('COUNT(*)', 'n').getRawOne<{ n: number | string }>())?.n ?? 0),
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
