import { BadRequestException } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import type { Request, Response } from 'express';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

export const PAGE_MAX = 1000;
/**
 * A list asked for without `limit` returns everything, up to this many rows; a longer one answers 400
 * and asks to be paged (OWASP API4: no unbounded responses).
 */
export const LIST_MAX_ROWS = 100_000;

/** Optional paging of every getList: without limit and cursor the whole list comes back, as the spec says. */
export class PageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: PAGE_MAX,
    example: 100,
    description: 'Page size. When more rows remain, the response carries `Link: <...>; rel="next"` with the next page\'s URL.',
  })
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value))
  @IsOptional()
  @Min(1, { message: `limit must be from 1 to ${PAGE_MAX}` })
  @Max(PAGE_MAX, { message: `limit must be from 1 to ${PAGE_MAX}` })
  // Listed last because class-validator runs decorators bottom-up and stops at the first error.
  @IsInt({ message: 'limit must be a whole number' })
  limit?: number;

  @ApiPropertyOptional({ maxLength: 400, pattern: '^[A-Za-z0-9_-]+$', description: 'Opaque position from a previous page\'s Link header: the page starts after it.', example: 'WyIyMDI2LTExLTIxVDEyOjA0OjA1LjEyM1oiLCJ4Il0' })
  @IsOptional()
  @IsString({ message: 'cursor must be a string, given once' })
  @MaxLength(400, { message: 'cursor is not valid' })
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor is not valid' })
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** The cursor of the next page, when more rows remain. */
  next?: string;
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
 * Keyset paging in the lists' order (created_at, id): rows after the cursor, one more than the
 * limit to learn whether a next page exists. Rows added between pages land after the cursor,
 * so paging covers every row exactly once.
 */
export function applyPage<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, createdCol: string, idCol: string, page: PageQueryDto): SelectQueryBuilder<T> {
  if (page.cursor !== undefined) {
    const c = decodeCursor(page.cursor);
    qb.andWhere(`(${createdCol} > :cursorAt OR (${createdCol} = :cursorAt AND ${idCol} > :cursorId))`, { cursorAt: c.createdAt, cursorId: c.id });
  }
  qb.orderBy(createdCol, 'ASC').addOrderBy(idCol, 'ASC');
  qb.limit((page.limit ?? LIST_MAX_ROWS) + 1);
  return qb;
}

/** Cuts the extra row applyPage asked for and derives the next cursor from the last row kept. */
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

/** Sets `Link: <same URL with cursor=next>; rel="next"` when another page exists; returns the items. */
export function withNextLink<T>(req: Request, res: Response, page: Page<T>): T[] {
  if (page.next) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(req.query)) if (key !== 'cursor' && typeof value === 'string') params.set(key, value);
    params.set('cursor', page.next);
    res.setHeader('Link', `<${req.originalUrl.split('?', 1)[0]}?${params.toString()}>; rel="next"`);
  }
  return page.items;
}

