import { BadRequestException } from '@nestjs/common';
import { sqlDate } from '../database/column-types';
import { LIST_MAX_ROWS } from './limits';
import { PageQueryDto } from './page-query.dto';

/** One page of a list, and the cursor of the next when more rows remain. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** A SQL condition with its '?' parameters (both mysql2 and better-sqlite3 take '?'). */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** The conditions of a list query, ANDed together. */
export class SqlWhere {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  and(condition: SqlCondition | string, ...params: unknown[]): this {
    if (typeof condition === 'string') condition = { sql: condition, params };
    this.parts.push(condition.sql);
    this.params.push(...condition.params);
    return this;
  }

  toString(): string {
    return this.parts.length ? ` WHERE ${this.parts.join(' AND ')}` : '';
  }
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

/**
 * A list query in the lists' order (created, id), keyset-paged: rows after the cursor, one more than
 * the limit to learn whether a next page exists. Rows added between pages land after the cursor, so
 * paging covers every row exactly once.
 */
export function pagedSql(selectFrom: string, where: SqlWhere, keys: { created: string; id: string }, page: PageQueryDto): SqlCondition {
  if (page.cursor !== undefined) {
    const c = decodeCursor(page.cursor);
    const at = sqlDate(c.createdAt);
    where.and(`(${keys.created} > ? OR (${keys.created} = ? AND ${keys.id} > ?))`, at, at, c.id);
  }
  // The limit is a validated whole number, inlined rather than bound (MySQL wants LIMIT as an integer).
  const limit = (page.limit ?? LIST_MAX_ROWS) + 1;
  return { sql: `${selectFrom}${where} ORDER BY ${keys.created}, ${keys.id} LIMIT ${limit}`, params: where.params };
}

/** Cuts the extra row pagedSql asked for and derives the next cursor from the last row kept. */
export function toPage<R, T>(rows: R[], page: PageQueryDto, key: (row: R) => [Date, string], map: (row: R) => T): Page<T> {
  if (page.limit === undefined) {
    if (rows.length > LIST_MAX_ROWS) throw new BadRequestException(`this list has more than ${LIST_MAX_ROWS} rows: page it with limit and cursor`);
    return { items: rows.map(map) };
  }
  if (rows.length <= page.limit) return { items: rows.map(map) };
  const kept = rows.slice(0, page.limit);
  const [createdAt, id] = key(kept[kept.length - 1]);
  return { items: kept.map(map), next: encodeCursor(createdAt, id) };
}
