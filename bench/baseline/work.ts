/**
 * The work both baselines of `npm run bench` do per request, whatever serves it: the floor
 * (server.ts, node:http) and bare Nest (nest-bare.ts). No Nest, no TypeORM, no class-validator here:
 * a mysql2 pool configured like TypeORM configures the service's, and the service's own pieces that
 * need neither:
 *
 *   - the token check: TOKEN_PATTERN, hashToken and TokenCache (src/auth/token-cache.ts), one lookup
 *     in api_tokens by token_hash on a miss, as TokensService.verify;
 *   - the visibility rule (canSee, productScopeSql from src/access/access-rule.ts);
 *   - the service's SQL (written out in sql.ts), run in the same order as the service runs them
 *     (see each operation), lists in the same order with the same cap (LIST_MAX_ROWS + 1);
 *   - the limits (src/common/limits.ts, *.limits.ts), isHttpUrl, uuidv7/newUrlSecrets, sqlDate.
 *
 * Validation is a couple of hand-written checks per field (what the service's DTOs check, without
 * class-validator). Paging (limit/cursor) is left out: those parameters are refused as unknown.
 * Errors are thrown as HttpError and leave as the service's envelope, {error, message}.
 */
import '../../src/config/load-env';
import { timingSafeEqual } from 'node:crypto';
import { createPool, type Pool, type RowDataPacket } from 'mysql2/promise';
import { Owned, canSee, productScopeSql } from '../../src/access/access-rule';
import type { Principal } from '../../src/auth/principal';
import { TOKEN_PATTERN, TokenCache, hashToken } from '../../src/auth/token-cache';
import { isDatabaseUnavailable, isDuplicateKey } from '../../src/database/database-errors';
import { isHttpUrl } from '../../src/common/http-url';
import { newUrlSecrets, uuidv7 } from '../../src/common/ids';
import { COMMON_LIMITS, LIST_MAX_ROWS } from '../../src/common/limits';
import { loadConfig } from '../../src/config/app-config';
import { sqlDate } from '../../src/database/column-types';
import { INVITE_LIMITS } from '../../src/domain/invite.limits';
import { readInvitesConfig } from '../../src/invites/invites.config';
import { PRODUCT_LIMITS } from '../../src/products/product.limits';
import { inTransaction } from './transaction';
import {
  INTERVIEW_WITH_OWNER_BY_ID,
  INVITE_INSERT_CHUNK,
  INVITE_KEYS,
  INVITE_LIST,
  INVITE_WITH_OWNER_BY_ID,
  InterviewRow,
  InviteRow,
  PRODUCT_BY_ID,
  PRODUCT_INSERT,
  PRODUCT_KEYS,
  PRODUCT_LIST,
  ProductRow,
  inviteFromRow,
  inviteInsertSql,
} from './sql';

export const config = loadConfig(process.env);
const invites = config.feature(readInvitesConfig);
if (config.database.kind !== 'mysql') {
  process.stderr.write('baseline: DATABASE_URL must be mysql://... or mariadb://...\n');
  process.exit(2);
}
const db = config.database;

// The options TypeORM's MySQL driver passes to mysql2 for the service (see data-source-options.ts).
export const pool: Pool = createPool({
  uri: db.url,
  charset: 'utf8mb4_unicode_ci',
  timezone: 'Z',
  connectTimeout: db.connectTimeoutMs,
  supportBigNumbers: true,
  bigNumberStrings: true,
  stringifyObjects: true,
  connectionLimit: db.poolSize,
  queueLimit: db.queueLimit,
  enableKeepAlive: true,
  maxIdle: db.poolSize,
  idleTimeout: 60_000,
  // As the service (data-source-options.ts): no stack captured per query for the errors' sake.
  trace: false,
});

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A query string's parameters: URLSearchParams (repeats come twice) or a parsed object (repeats as arrays). */
export type QueryEntries = Iterable<[string, unknown]>;

// ---------------------------------------------------------------------------------------------
// Token check, as AuthGuard and TokensService.verify.

const tokens = new TokenCache(config.tokenCacheTtlMs);

async function verify(token: string): Promise<Principal | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const hash = hashToken(token);
  const cached = tokens.get(hash);
  if (cached !== undefined) return cached;
  const generation = tokens.generation;
  const [rows] = await pool.query<RowDataPacket[]>(
    'SELECT id, name, token_hash, is_admin, org_id, user_id, created_at, revoked_at FROM api_tokens WHERE token_hash = ? LIMIT 1',
    [hash],
  );
  const row = rows[0];
  const matches = !!row && timingSafeEqual(Buffer.from(row.token_hash as string, 'hex'), Buffer.from(hash, 'hex'));
  const principal: Principal | null = matches && !row.revoked_at ? { tokenId: row.id, isAdmin: !!row.is_admin, orgID: row.org_id, userID: row.user_id } : null;
  tokens.remember(hash, principal, generation);
  return principal;
}

/** The caller of `Authorization: Bearer irs_...`, or 401 with the service's messages. */
export async function authenticate(header: string | undefined): Promise<Principal> {
  if (!header) throw new HttpError(401, 'missing Authorization header: send "Authorization: Bearer <token>"');
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  if (!match) throw new HttpError(401, 'malformed Authorization header: expected "Bearer <token>"');
  const principal = await verify(match[1]);
  if (!principal) throw new HttpError(401, 'invalid or revoked token');
  return principal;
}

export async function health(): Promise<{ status: 'ok'; database: 'up' }> {
  await pool.query('SELECT 1');
  return { status: 'ok', database: 'up' };
}

// ---------------------------------------------------------------------------------------------
// Validation: a couple of hand-written checks per field.

const ID = COMMON_LIMITS.idInput;
const OWNER = COMMON_LIMITS.ownerId;

function cleanText(value: string): boolean {
  return !value.includes('\0') && value.isWellFormed();
}

/** Query parameters: only `allowed` names (with their maximum length), each a string given once. */
function readQuery(entries: QueryEntries, allowed: Record<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (!Object.hasOwn(allowed, key)) throw new HttpError(400, `unknown field "${key}" is not allowed`);
    const max = allowed[key];
    if (typeof value !== 'string' || Object.hasOwn(out, key)) throw new HttpError(400, `${key} must be a string, given once`);
    if (value.length < 1 || value.length > max) throw new HttpError(400, `${key} must be 1 to ${max} characters long`);
    if (!cleanText(value)) throw new HttpError(400, `${key} must not contain NUL characters or unpaired surrogates`);
    out[key] = value;
  }
  return out;
}

function required(q: Record<string, string>, key: string): string {
  const value = q[key];
  if (value === undefined) throw new HttpError(400, `${key} is required`);
  return value;
}

function optionalText(body: Record<string, unknown>, key: string, max: number, url = false): string | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new HttpError(400, `${key} must be a string`);
  if (value.length > max) throw new HttpError(400, `${key} must be at most ${max} characters long`);
  if (!cleanText(value)) throw new HttpError(400, `${key} must not contain NUL characters or unpaired surrogates`);
  if (url && !isHttpUrl(value)) throw new HttpError(400, `${key} must be an absolute http(s) URL`);
  return value;
}

/** 415 unless the request says application/json (as the service's JsonBodyMiddleware). */
export function requireJson(contentType: string | undefined): void {
  if (!/^application\/json\s*(;|$)/i.test(contentType ?? '')) throw new HttpError(415, 'Content-Type must be application/json');
}

export function jsonObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'request body must be a JSON object');
  return body as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Reads through the visibility rule, as AccessService: one query each, 404 when not visible.

type Owner = { ownerOrgID: string | null; ownerUserID: string | null };
const ownerOf = (row: Owner): Owned => ({ orgID: row.ownerOrgID, userID: row.ownerUserID });

async function visibleProduct(p: Principal, productID: string): Promise<ProductRow> {
  const [rows] = await pool.query<RowDataPacket[]>(PRODUCT_BY_ID, [productID]);
  const row = rows[0] as ProductRow | undefined;
  if (!row || !canSee(p, row)) throw new HttpError(404, `product ${JSON.stringify(productID)} not found`);
  return row;
}

async function visibleInterview(p: Principal, interviewID: string): Promise<{ interview: InterviewRow; owner: Owned }> {
  const [rows] = await pool.query<RowDataPacket[]>(INTERVIEW_WITH_OWNER_BY_ID, [interviewID]);
  const row = rows[0] as (InterviewRow & Owner) | undefined;
  if (!row || !canSee(p, ownerOf(row))) throw new HttpError(404, `interview ${JSON.stringify(interviewID)} not found`);
  return { interview: row, owner: ownerOf(row) };
}

/** A list's conditions, ANDed, with their parameters. */
class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];

  and(sql: string, ...params: unknown[]): void {
    this.parts.push(sql);
    this.params.push(...params);
  }
}

/** A list in the service's order, capped as the service caps an unpaged list (pagedSql without limit). */
async function list<R>(selectFrom: string, where: Where, keys: { created: string; id: string }): Promise<R[]> {
  const sql = `${selectFrom}${where.parts.length ? ` WHERE ${where.parts.join(' AND ')}` : ''} ORDER BY ${keys.created}, ${keys.id} LIMIT ${LIST_MAX_ROWS + 1}`;
  const [rows] = await pool.query<RowDataPacket[]>(sql, where.params);
  if (rows.length > LIST_MAX_ROWS) throw new HttpError(400, `this list has more than ${LIST_MAX_ROWS} rows: page it with limit and cursor`);
  return rows as R[];
}

/** A product as the API returns it (ProductsService's toDto). */
function productJson(r: ProductRow) {
  return { productID: r.productID, name: r.name, desc: r.desc, orgID: r.orgID, userID: r.userID, url: r.url, imageLink: r.imageLink };
}

// ---------------------------------------------------------------------------------------------
// Operations: each does what the service's does, with the same queries in the same order.

/** One query: PRODUCT_BY_ID (AccessService.product). */
export async function productsGetOne(p: Principal, query: QueryEntries) {
  const productID = required(readQuery(query, { productID: ID }), 'productID');
  return productJson(await visibleProduct(p, productID));
}

/** One query: PRODUCT_LIST with the filters and, for a scoped token, the visibility condition. */
export async function productsGetList(p: Principal, query: QueryEntries) {
  const q = readQuery(query, { orgID: OWNER, userID: OWNER });
  if (q.orgID === undefined && q.userID === undefined) throw new HttpError(400, 'at least one of orgID, userID is required');
  const where = new Where();
  if (q.orgID !== undefined) where.and('p.org_id = ?', q.orgID);
  if (q.userID !== undefined) where.and('p.user_id = ?', q.userID);
  const scope = productScopeSql(p, 'p');
  if (scope) where.and(scope.sql, ...scope.params);
  return (await list<ProductRow>(PRODUCT_LIST, where, PRODUCT_KEYS)).map(productJson);
}

const PRODUCT_FIELDS = new Set(['name', 'desc', 'orgID', 'userID', 'url', 'imageLink']);

/** One query: PRODUCT_INSERT, as the service runs it. */
export async function productsAddOne(p: Principal, query: QueryEntries, rawBody: unknown): Promise<{ productID: string }> {
  readQuery(query, {});
  const body = jsonObject(rawBody);
  for (const key of Object.keys(body)) if (!PRODUCT_FIELDS.has(key)) throw new HttpError(400, `unknown field "${key}" is not allowed`);
  const name = body.name;
  if (name === undefined || name === null) throw new HttpError(400, 'name is required');
  if (typeof name !== 'string') throw new HttpError(400, 'name must be a string');
  if (name.length < 1 || name.length > PRODUCT_LIMITS.name) throw new HttpError(400, `name must be 1 to ${PRODUCT_LIMITS.name} characters long`);
  if (!cleanText(name)) throw new HttpError(400, 'name must not contain NUL characters or unpaired surrogates');
  if (!/\S/.test(name)) throw new HttpError(400, 'name must contain a non-whitespace character');
  const desc = optionalText(body, 'desc', PRODUCT_LIMITS.desc);
  const orgID = optionalText(body, 'orgID', OWNER);
  const userID = optionalText(body, 'userID', OWNER);
  const url = optionalText(body, 'url', COMMON_LIMITS.url, true);
  const imageLink = optionalText(body, 'imageLink', COMMON_LIMITS.url, true);
  if (orgID === null && userID === null) throw new HttpError(400, 'at least one of orgID, userID is required');
  if (!canSee(p, { orgID, userID })) {
    throw new HttpError(403, 'the product would not be visible to this token afterwards; a token may only write within its own organization or user');
  }
  const now = new Date();
  const productID = uuidv7();
  const at = sqlDate(now);
  await pool.query(PRODUCT_INSERT, [productID, name, desc, orgID, userID, url, imageLink, at, at]);
  return { productID };
}

/** One query: INVITE_WITH_OWNER_BY_ID (AccessService.invite). */
export async function invitesGetOne(p: Principal, query: QueryEntries) {
  const linkID = required(readQuery(query, { linkID: ID }), 'linkID');
  const [rows] = await pool.query<RowDataPacket[]>(INVITE_WITH_OWNER_BY_ID, [linkID]);
  const row = rows[0] as (InviteRow & Owner) | undefined;
  if (!row || !canSee(p, ownerOf(row))) throw new HttpError(404, `invite ${JSON.stringify(linkID)} not found`);
  return inviteFromRow(row);
}

/**
 * The named interview's visibility (INTERVIEW_WITH_OWNER_BY_ID) and/or the named product's
 * (PRODUCT_BY_ID), then INVITE_LIST with the filters and no scope condition: what the caller may
 * see of those, it may see all of.
 */
export async function invitesGetList(p: Principal, query: QueryEntries) {
  const q = readQuery(query, { interviewID: ID, productID: ID });
  if (q.interviewID === undefined && q.productID === undefined) throw new HttpError(400, 'at least one of interviewID, productID is required');
  const where = new Where();
  if (q.interviewID !== undefined) {
    await visibleInterview(p, q.interviewID);
    where.and('i.interview_id = ?', q.interviewID);
  }
  if (q.productID !== undefined) {
    await visibleProduct(p, q.productID);
    where.and('i.product_id = ?', q.productID);
  }
  return (await list<InviteRow>(INVITE_LIST, where, INVITE_KEYS)).map(inviteFromRow);
}

/**
 * INTERVIEW_WITH_OWNER_BY_ID (and PRODUCT_BY_ID only when a productID other than the interview's
 * is named, to answer 404 or 400), then one transaction of one multi-row INSERT per
 * INVITE_INSERT_CHUNK rows: InvitesService.createInvites and insertInvites.
 */
export async function invitesCreateInvites(p: Principal, query: QueryEntries): Promise<string[]> {
  const q = readQuery(query, { interviewID: ID, count: 9, productID: ID, orgID: OWNER, expiresInDays: 9 });
  const interviewID = required(q, 'interviewID');
  const countText = required(q, 'count');
  if (!/^\d{1,9}$/.test(countText)) throw new HttpError(400, 'count must be a whole number');
  const count = Number(countText);
  const max = invites.maxInvitesPerRequest;
  if (count < 1 || count > max) throw new HttpError(400, `count must be from 1 to ${max}`);
  let days = invites.inviteTtlDays;
  if (q.expiresInDays !== undefined) {
    const maxDays = INVITE_LIMITS.expiresInDaysMax;
    if (!/^\d{1,9}$/.test(q.expiresInDays)) throw new HttpError(400, 'expiresInDays must be a whole number');
    days = Number(q.expiresInDays);
    if (days < 1 || days > maxDays) throw new HttpError(400, `expiresInDays must be from 1 to ${maxDays}`);
  }
  const { interview, owner } = await visibleInterview(p, interviewID);
  if (q.productID !== undefined && q.productID !== interview.productID) {
    await visibleProduct(p, q.productID);
    throw new HttpError(400, `productID ${JSON.stringify(q.productID)} is not the product of interview ${JSON.stringify(interview.interviewID)}`);
  }
  if (q.orgID !== undefined && !p.isAdmin && q.orgID !== p.orgID) {
    throw new HttpError(403, 'an invite of another organization would not be visible to this token afterwards; a token may only write within its own organization or user');
  }
  const orgID = q.orgID ?? owner.orgID;
  const linkIDs = newUrlSecrets(count);
  const now = new Date();
  const at = sqlDate(now);
  const expires = sqlDate(new Date(now.getTime() + days * 86_400_000));
  await inTransaction(pool, async (conn) => {
    for (let start = 0; start < count; start += INVITE_INSERT_CHUNK) {
      const chunk = linkIDs.slice(start, start + INVITE_INSERT_CHUNK);
      const params: (string | null)[] = [];
      for (const linkID of chunk) params.push(linkID, interview.interviewID, interview.productID, orgID, at, at, expires);
      await conn.query(inviteInsertSql(chunk.length), params);
    }
  });
  const base = invites.inviteBaseUrl;
  return linkIDs.map((linkID) => `${base}/${linkID}`);
}

// ---------------------------------------------------------------------------------------------

/** Status, envelope and headers of a failed request, as the service's AllExceptionsFilter answers them. */
export function errorReply(error: unknown, label: string): { status: number; body: { error: number; message: string }; headers: Record<string, string> } {
  let status = 500;
  let message = 'internal server error';
  if (error instanceof HttpError) {
    status = error.status;
    message = error.message;
  } else if (isDatabaseUnavailable(error)) {
    status = 503;
    message = 'database unavailable, try again shortly';
  } else if (isDuplicateKey(error)) {
    status = 409;
    message = 'conflicts with a stored record';
  } else {
    process.stderr.write(`${label}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  const headers: Record<string, string> = {};
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  if (status === 503) headers['Retry-After'] = '5';
  return { status, body: { error: status, message }, headers };
}
