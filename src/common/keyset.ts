import { BadRequestException, Logger, StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { Brackets, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import { LIST_MAX_ROWS } from './limits';
import type { PageQueryDto } from './page-query.dto';

/** One page of a list, and the cursor of the next when more rows remain. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** What a getList answers: a page (with a Link header to the next, when asked for one), or the whole list as a stream. */
export type ListAnswer<T> = Page<T> | StreamableFile;

/** A SQL condition with its '?' parameters (both mysql2 and better-sqlite3 take '?'). */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/**
 * A condition with '?' parameters as a QueryBuilder takes it: its parameters named `prefix0`,
 * `prefix1`, … in order (a builder names every parameter; its own are bound by name).
 */
export function namedCondition(condition: SqlCondition, prefix: string): [string, ObjectLiteral] {
  const params: ObjectLiteral = {};
  let n = 0;
  const sql = condition.sql.replace(/\?/g, () => {
    const name = `${prefix}${n}`;
    params[name] = condition.params[n++];
    return `:${name}`;
  });
  return [sql, params];
}

export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [iso, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const createdAt = new Date(iso as string);
    if (typeof iso !== 'string' || typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw new Error('shape');
    return { createdAt, id };
  } catch {
    throw new BadRequestException('cursor is not valid');
  }
}

/** Every page of a list after `cursor` (from it, with `fromCursor`), one query each, read as they are taken. */
async function* pagesOf<R>(
  list: { page(limit: number, cursor?: string, fromCursor?: boolean): Promise<{ rows: R[]; next?: string }> },
  perPage: number,
  cursor?: string,
  fromCursor = false,
): AsyncGenerator<R[]> {
  for (;;) {
    const page = await list.page(perPage, cursor, fromCursor);
    yield page.rows;
    if (page.next === undefined) return;
    cursor = page.next;
    fromCursor = false;
  }
}

/** A list that pages: what answerList reads (KeysetList, and lists with keys of their own). */
export interface PagedList<R> {
  /** Up to `limit` rows after `cursor`, and the next page's cursor when more remain. */
  page(limit: number, cursor?: string): Promise<{ rows: R[]; next?: string }>;
  /** How many rows the list has (an implementation may stop counting past `max`). */
  countUpTo(max: number): Promise<number>;
}

/** One list read through a QueryBuilder: its rows (selection, joins, conditions) and its key properties. */
export interface KeysetQuery<R, E extends ObjectLiteral = ObjectLiteral> {
  /** A new builder of the list's rows, without order or limit: each page adds its own. */
  query: () => SelectQueryBuilder<E>;
  /** The key properties as the builder names them, e.g. `i.createdAt` and `i.linkID`. */
  keys: { created: string; id: string };
  /** A row's place in the list: its creation time and identifier. */
  keyOf: (row: R) => { createdAt: Date; id: string };
  /** How a page's rows are read: the entities (getMany) unless said otherwise. */
  read?: (query: SelectQueryBuilder<E>) => Promise<R[]>;
}

/**
 * A list read in the lists' order (created, id) a page at a time through a QueryBuilder: rows after a
 * cursor, one more than asked for, to learn whether another page exists. Rows added between pages land
 * after the cursor, so paging covers every row exactly once.
 */
export class KeysetList<R, E extends ObjectLiteral = ObjectLiteral> implements PagedList<R> {
  constructor(private readonly q: KeysetQuery<R, E>) {}

  /**
   * Up to `limit` rows after `cursor` (from it, with `fromCursor`: a list of finer things than rows
   * resumes inside the row it stopped in), and the cursor of the next page when more remain.
   */
  async page(limit: number, cursor?: string, fromCursor = false): Promise<{ rows: R[]; next?: string }> {
    const { created, id } = this.q.keys;
    const query = this.q.query();
    if (cursor !== undefined) {
      const c = decodeCursor(cursor);
      query.andWhere(
        new Brackets((after) =>
          after.where(`${created} > :keysetCreated`).orWhere(`(${created} = :keysetCreated AND ${id} ${fromCursor ? '>=' : '>'} :keysetID)`, { keysetCreated: c.createdAt, keysetID: c.id }),
        ),
      );
    }
    query.orderBy(created, 'ASC').addOrderBy(id, 'ASC').limit(limit + 1);
    // Without `read`, the rows are the entities (R is E).
    const rows = this.q.read ? await this.q.read(query) : ((await query.getMany()) as unknown as R[]);
    if (rows.length <= limit) return { rows };
    rows.length = limit;
    const last = this.q.keyOf(rows[limit - 1]);
    return { rows, next: encodeCursor(last.createdAt, last.id) };
  }

  /** Every page of up to `perPage` rows after `cursor` (from it, with `fromCursor`), one query each, read as they are taken. */
  pages(perPage: number, cursor?: string, fromCursor = false): AsyncGenerator<R[]> {
    return pagesOf(this, perPage, cursor, fromCursor);
  }

  /**
   * How many rows the list has, counting no further than `max`. Selects no column: the rows' own
   * columns (transcripts) would be read for nothing, where the index alone can answer.
   */
  async countUpTo(max: number): Promise<number> {
    const capped = this.q.query().select('1', 'one').limit(max);
    const row = await capped
      .createQueryBuilder()
      .select('COUNT(*)', 'n')
      .from(`(${capped.getQuery()})`, 'capped')
      .setParameters(capped.getParameters())
      .getRawOne<{ n: number | string }>();
    return Number(row?.n ?? 0);
  }
}

/** Rows per query when a whole list is streamed (unless the list says otherwise: invites carry transcripts). */
export const STREAM_CHUNK_ROWS = 1000;

const logger = new Logger('Lists');

/**
 * A getList's answer. With `limit`: that page, and the next page's cursor for the Link header. Without:
 * the whole list, at most LIST_MAX_ROWS (400 beyond, asking to page), which is written to the response
 * a chunk of rows at a time as `{"result": [...]}` (a StreamableFile the result interceptor lets
 * through), so that memory stays bounded whatever the list's size. A list that fits in one chunk is
 * answered as a page like any other. `present` turns a chunk of rows into what the API shows (it may
 * look more up, a chunk at a time); `stringify` writes a streamed item (JSON.stringify, unless the
 * list's items hold JSON as stored: stored-json.ts's stringifyRow).
 */
export async function answerList<R, T>(
  page: PageQueryDto,
  list: PagedList<R>,
  present: (rows: R[]) => T[] | Promise<T[]>,
  chunkRows: number = STREAM_CHUNK_ROWS,
  stringify: (item: T) => string = (item) => JSON.stringify(item),
): Promise<ListAnswer<T>> {
  if (page.limit !== undefined) {
    const { rows, next } = await list.page(page.limit, page.cursor);
    return { items: await present(rows), next };
  }
  // Everything before the first byte can still fail as a proper error response: the first chunk, the cap.
  const first = await list.page(chunkRows, page.cursor);
  if (first.next === undefined) return { items: await present(first.rows) };
  if ((await list.countUpTo(LIST_MAX_ROWS + 1)) > LIST_MAX_ROWS) {
    throw new BadRequestException(`this list has more than ${LIST_MAX_ROWS} rows: page it with limit and cursor`);
  }
  const firstItems = await present(first.rows);
  let sent = first.rows.length;
  // The next chunk's query runs while the last chunk is written: the database and the socket work at
  // once, and at most one chunk more is held. A client gone mid-list leaves a query nobody awaits: its
  // failure is then of no interest (the catch only keeps it from being an unhandled rejection).
  const fetchAfter = (cursor: string | undefined) => {
    if (cursor === undefined || sent >= LIST_MAX_ROWS) return undefined;
    const next = list.page(Math.min(chunkRows, LIST_MAX_ROWS - sent), cursor);
    next.catch(() => undefined);
    return next;
  };
  // Each chunk is one flat string made by join, its leading comma included: a comma or bracket added
  // with + or a template makes a rope, which the response's chunked encoding flattens into a copy to
  // measure it (78 MB of copies for an 81 MB list of 20,000 transcripts).
  const json = (items: T[], afterOthers: boolean) => {
    const parts = items.map(stringify);
    if (afterOthers) parts.unshift('');
    return parts.join(',');
  };
  async function* body(): AsyncGenerator<string> {
    let pending = fetchAfter(first.next);
    yield '{"result":[';
    yield json(firstItems, false);
    while (pending !== undefined) {
      const next = await pending;
      sent += next.rows.length;
      pending = fetchAfter(next.next);
      const items = await present(next.rows);
      if (items.length > 0) yield json(items, true);
    }
    yield ']}';
  }
  const file = new StreamableFile(Readable.from(body()), { type: 'application/json; charset=utf-8' });
  // The status and the first rows are out: a failure now can only cut the response short, which the
  // client sees as JSON that does not end.
  file.setErrorHandler((error, res) => {
    logger.warn({ msg: 'list stream failed; response cut short', error: error.message });
    res.destroy?.();
  });
  return file;
}
