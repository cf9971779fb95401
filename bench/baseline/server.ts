/**
 * The hand-written baseline for `npm run bench`: the floor of this stack (Node + mysql2 + MySQL/MariaDB)
 * for the operations the benchmark drives. No framework, no ORM: node:http, a mysql2 pool configured
 * like TypeORM configures the service's, and the same work per request:
 *
 *   - token check: `Authorization: Bearer irs_...`, SHA-256 of the token, lookup in api_tokens by
 *     token_hash, cached per hash for TOKEN_CACHE_TTL_SECONDS (as TokensService does);
 *   - validation of the query or body (hand-written checks: unknown or repeated parameters, lengths,
 *     types, URLs), the same visibility rule (admin sees all, else the product's org or user);
 *   - the same SQL: rows read by primary key or through the same (org|interview, created_at, id)
 *     indexes in the same order, the same columns, one multi-row INSERT in a transaction for invites;
 *   - the same JSON: `{result: ...}` or `{error, message}`, the same field names, JSON columns parsed,
 *     timestamps as ISO-8601.
 *
 * It does not log per request, set security or rate-limit headers, compute ETags, or page lists
 * (no limit/cursor): those are costs the service adds, and the ratio service/baseline shows them.
 * A record and its product's owners (for the visibility check) are read in one JOIN; where the
 * service repeats a lookup (createInvites reads the interview's product again), the baseline does not.
 *
 * Routes: GET /health, GET /v1/products/getOne, GET /v1/products/getList, POST /v1/products/addOne,
 * GET /v1/invites/getOne, GET /v1/invites/getList, GET /v1/invites/createInvites.
 * Configuration: the service's own environment (loadConfig), PORT to listen on.
 */
import '../../src/config/load-env';
import { createHash, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { createPool, type Pool, type RowDataPacket } from 'mysql2/promise';
import { loadConfig } from '../../src/config/app-config';
import { isDatabaseUnavailable, isDuplicateKey } from '../../src/common/database-errors';
import { newLinkIds, uuidv7 } from '../../src/common/ids';
import { sqlDate } from '../../src/database/column-types';

const config = loadConfig(process.env);
if (config.database.kind !== 'mysql') {
  process.stderr.write('baseline: DATABASE_URL must be mysql://... or mariadb://...\n');
  process.exit(2);
}
const db = config.database;

// The options TypeORM's MySQL driver passes to mysql2 for the service (see data-source-options.ts).
const pool: Pool = createPool({
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
});

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------
// Token check, as TokensService.verify: pattern, SHA-256, lookup by hash, cached (unknown too).

interface Principal {
  tokenId: string;
  isAdmin: boolean;
  orgID: string | null;
  userID: string | null;
}

const TOKEN_PATTERN = /^irs_[A-Za-z0-9_-]{43}$/;
const TOKEN_CACHE_MAX = 10_000;
const tokenCache = new Map<string, { principal: Principal | null; expiresAt: number }>();

async function verify(token: string): Promise<Principal | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const hash = createHash('sha256').update(token, 'utf8').digest('hex');
  const now = Date.now();
  const cached = tokenCache.get(hash);
  if (cached && cached.expiresAt > now) return cached.principal;
  const [rows] = await pool.query<RowDataPacket[]>(
    'SELECT id, name, token_hash, is_admin, org_id, user_id, created_at, revoked_at FROM api_tokens WHERE token_hash = ? LIMIT 1',
    [hash],
  );
  const row = rows[0];
  const matches = !!row && timingSafeEqual(Buffer.from(row.token_hash as string, 'hex'), Buffer.from(hash, 'hex'));
  const principal: Principal | null =
    matches && !row.revoked_at ? { tokenId: row.id, isAdmin: !!row.is_admin, orgID: row.org_id, userID: row.user_id } : null;
  if (config.tokenCacheTtlMs > 0) {
    tokenCache.delete(hash);
    if (tokenCache.size >= TOKEN_CACHE_MAX) tokenCache.delete(tokenCache.keys().next().value!);
    tokenCache.set(hash, { principal, expiresAt: now + config.tokenCacheTtlMs });
  }
  return principal;
}

async function authenticate(req: IncomingMessage): Promise<Principal> {
  const header = req.headers.authorization;
  if (!header) throw new HttpError(401, 'missing Authorization header: send "Authorization: Bearer <token>"');
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  if (!match) throw new HttpError(401, 'malformed Authorization header: expected "Bearer <token>"');
  const principal = await verify(match[1]);
  if (!principal) throw new HttpError(401, 'invalid or revoked token');
  return principal;
}

function canSee(p: Principal, owner: { org_id: string | null; user_id: string | null }): boolean {
  if (p.isAdmin) return true;
  return (p.orgID !== null && owner.org_id === p.orgID) || (p.userID !== null && owner.user_id === p.userID);
}

/** The visibility rule as SQL for a products alias; empty for admin. */
function scopeSql(p: Principal, alias: string, params: unknown[]): string {
  if (p.isAdmin) return '';
  const parts: string[] = [];
  if (p.orgID !== null) {
    parts.push(`${alias}.org_id = ?`);
    params.push(p.orgID);
  }
  if (p.userID !== null) {
    parts.push(`${alias}.user_id = ?`);
    params.push(p.userID);
  }
  return ` AND ${parts.length ? `(${parts.join(' OR ')})` : '1 = 0'}`;
}

// ---------------------------------------------------------------------------------------------
// Validation: a couple of hand-written checks per parameter.

function cleanText(value: string): boolean {
  return !value.includes('\0') && value.isWellFormed();
}

/** Query parameters: only `allowed` names, each at most once, strings of 1..max characters. */
function readQuery(search: string, allowed: Record<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const max = allowed[key];
    if (max === undefined) throw new HttpError(400, `unknown field "${key}" is not allowed`);
    if (key in out) throw new HttpError(400, `${key} must be a string, given once`);
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

function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
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

const PRODUCT_BODY_FIELDS = new Set(['name', 'desc', 'orgID', 'userID', 'url', 'imageLink']);

async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new HttpError(415, 'Content-Type must be application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > config.bodyLimitBytes) throw new HttpError(413, 'request body is too large');
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'request body is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'request body must be a JSON object');
  return body as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Row → JSON, as the service's toDto / toInviteDto.

const PRODUCT_COLUMNS = 'id, name, description, org_id, user_id, url, image_link, created_at, updated_at';
const INTERVIEW_COLUMNS = 'id, product_id, name, guidelines, user_id, interviewer, created_at, updated_at';
const INVITE_COLUMNS = 'link_id, interview_id, product_id, org_id, user_info, status, created_at, completed_on, conversation, updated_at';

function prefixed(columns: string, alias: string): string {
  return columns
    .split(', ')
    .map((c) => `${alias}.${c}`)
    .join(', ');
}

function productJson(r: RowDataPacket) {
  return { productID: r.id, name: r.name, desc: r.description, orgID: r.org_id, userID: r.user_id, url: r.url, imageLink: r.image_link };
}

function inviteJson(r: RowDataPacket) {
  return {
    linkID: r.link_id,
    interviewID: r.interview_id,
    productID: r.product_id,
    orgID: r.org_id,
    userInfo: r.user_info === null ? null : JSON.parse(r.user_info),
    status: r.status,
    timestamp: (r.created_at as Date).toISOString(),
    completed_on: r.completed_on ? (r.completed_on as Date).toISOString() : null,
    conversation: r.conversation === null ? null : JSON.parse(r.conversation),
  };
}

async function visibleProduct(productID: string, p: Principal): Promise<RowDataPacket | undefined> {
  const [rows] = await pool.query<RowDataPacket[]>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE id = ? LIMIT 1`, [productID]);
  const row = rows[0];
  return row && canSee(p, { org_id: row.org_id, user_id: row.user_id }) ? row : undefined;
}

/** The interview with its product's owners, in one query; 404 unless the caller sees the product. */
async function visibleInterview(interviewID: string, p: Principal): Promise<RowDataPacket> {
  const [rows] = await pool.query<RowDataPacket[]>(
    `SELECT ${prefixed(INTERVIEW_COLUMNS, 'i')}, p.org_id AS p_org_id, p.user_id AS p_user_id FROM interviews i INNER JOIN products p ON p.id = i.product_id WHERE i.id = ? LIMIT 1`,
    [interviewID],
  );
  const interview = rows[0];
  if (!interview || !canSee(p, { org_id: interview.p_org_id, user_id: interview.p_user_id })) throw new HttpError(404, `interview ${JSON.stringify(interviewID)} not found`);
  return interview;
}

// ---------------------------------------------------------------------------------------------
// Operations.

type Handler = (req: IncomingMessage, search: string, p: Principal) => Promise<[number, unknown]>;

const ID = 64;

const routes: Record<string, Handler> = {
  'GET /v1/products/getOne': async (_req, search, p) => {
    const productID = required(readQuery(search, { productID: ID }), 'productID');
    const product = await visibleProduct(productID, p);
    if (!product) throw new HttpError(404, `product ${JSON.stringify(productID)} not found`);
    return [200, productJson(product)];
  },

  'GET /v1/products/getList': async (_req, search, p) => {
    const q = readQuery(search, { orgID: 100, userID: 100 });
    if (q.orgID === undefined && q.userID === undefined) throw new HttpError(400, 'at least one of orgID, userID is required');
    const params: unknown[] = [];
    let where = '1 = 1';
    if (q.orgID !== undefined) {
      where += ' AND p.org_id = ?';
      params.push(q.orgID);
    }
    if (q.userID !== undefined) {
      where += ' AND p.user_id = ?';
      params.push(q.userID);
    }
    where += scopeSql(p, 'p', params);
    const [rows] = await pool.query<RowDataPacket[]>(
      // The service caps unpaged lists the same way (LIST_MAX_ROWS + 1), which also steers the plan onto the index.
      `SELECT p.id, p.name, p.description, p.org_id, p.user_id, p.url, p.image_link, p.created_at FROM products p WHERE ${where} ORDER BY p.created_at ASC, p.id ASC LIMIT 100001`,
      params,
    );
    return [200, rows.map(productJson)];
  },

  'POST /v1/products/addOne': async (req, search, p) => {
    readQuery(search, {});
    const body = await readJsonBody(req);
    for (const key of Object.keys(body)) if (!PRODUCT_BODY_FIELDS.has(key)) throw new HttpError(400, `unknown field "${key}" is not allowed`);
    const name = body.name;
    if (name === undefined || name === null) throw new HttpError(400, 'name is required');
    if (typeof name !== 'string') throw new HttpError(400, 'name must be a string');
    if (name.length < 1 || name.length > 200) throw new HttpError(400, 'name must be 1 to 200 characters long');
    if (!cleanText(name)) throw new HttpError(400, 'name must not contain NUL characters or unpaired surrogates');
    if (!/\S/.test(name)) throw new HttpError(400, 'name must contain a non-whitespace character');
    const desc = optionalText(body, 'desc', 10_000);
    const orgID = optionalText(body, 'orgID', 100);
    const userID = optionalText(body, 'userID', 100);
    const url = optionalText(body, 'url', 2048, true);
    const imageLink = optionalText(body, 'imageLink', 2048, true);
    if (orgID === null && userID === null) throw new HttpError(400, 'at least one of orgID, userID is required');
    if (!canSee(p, { org_id: orgID, user_id: userID })) {
      throw new HttpError(403, 'the product would not be visible to this token afterwards; a token may only write within its own organization or user');
    }
    const now = new Date();
    const productID = uuidv7(now.getTime());
    await pool.query(
      'INSERT INTO products (id, name, description, org_id, user_id, url, image_link, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [productID, name, desc, orgID, userID, url, imageLink, now, now],
    );
    return [201, { productID }];
  },

  'GET /v1/invites/getOne': async (_req, search, p) => {
    const linkID = required(readQuery(search, { linkID: ID }), 'linkID');
    // One query: the invite with its product's owners, for the visibility check.
    const [rows] = await pool.query<RowDataPacket[]>(
      `SELECT ${prefixed(INVITE_COLUMNS, 'i')}, p.org_id AS p_org_id, p.user_id AS p_user_id FROM invites i INNER JOIN products p ON p.id = i.product_id WHERE i.link_id = ? LIMIT 1`,
      [linkID],
    );
    const invite = rows[0];
    if (!invite || !canSee(p, { org_id: invite.p_org_id, user_id: invite.p_user_id })) throw new HttpError(404, `invite ${JSON.stringify(linkID)} not found`);
    return [200, inviteJson(invite)];
  },

  'GET /v1/invites/getList': async (_req, search, p) => {
    const q = readQuery(search, { interviewID: ID, productID: ID });
    if (q.interviewID === undefined && q.productID === undefined) throw new HttpError(400, 'at least one of interviewID, productID is required');
    if (q.interviewID !== undefined) await visibleInterview(q.interviewID, p);
    if (q.productID !== undefined && !(await visibleProduct(q.productID, p))) throw new HttpError(404, `product ${JSON.stringify(q.productID)} not found`);
    const params: unknown[] = [];
    let where = '1 = 1';
    if (q.interviewID !== undefined) {
      where += ' AND i.interview_id = ?';
      params.push(q.interviewID);
    }
    if (q.productID !== undefined) {
      where += ' AND i.product_id = ?';
      params.push(q.productID);
    }
    const scope = scopeSql(p, 'p', params);
    const join = scope ? ' INNER JOIN products p ON p.id = i.product_id' : '';
    const [rows] = await pool.query<RowDataPacket[]>(
      `SELECT ${prefixed(INVITE_COLUMNS, 'i')} FROM invites i${join} WHERE ${where}${scope} ORDER BY i.created_at ASC, i.link_id ASC LIMIT 100001`,
      params,
    );
    return [200, rows.map(inviteJson)];
  },

  'GET /v1/invites/createInvites': async (_req, search, p) => {
    const q = readQuery(search, { interviewID: ID, count: 9, productID: ID, orgID: 100 });
    const interviewID = required(q, 'interviewID');
    const countText = required(q, 'count');
    if (!/^\d{1,9}$/.test(countText)) throw new HttpError(400, 'count must be a whole number');
    const count = Number(countText);
    const max = config.maxInvitesPerRequest;
    if (count < 1 || count > max) throw new HttpError(400, `count must be from 1 to ${max}`);
    const interview = await visibleInterview(interviewID, p);
    if (q.productID !== undefined) {
      if (!(await visibleProduct(q.productID, p))) throw new HttpError(404, `product ${JSON.stringify(q.productID)} not found`);
      if (q.productID !== interview.product_id) {
        throw new HttpError(400, `productID ${JSON.stringify(q.productID)} is not the product of interview ${JSON.stringify(interview.id)}`);
      }
    }
    if (q.orgID !== undefined && !p.isAdmin && q.orgID !== p.orgID) {
      throw new HttpError(403, 'an invite of another organization would not be visible to this token afterwards; a token may only write within its own organization or user');
    }
    const orgID = q.orgID ?? interview.p_org_id;
    // The same statement as the service's insertInvites: constant columns inlined, one CSPRNG call.
    const at = sqlDate(new Date());
    const linkIDs = newLinkIds(count);
    const params: (string | null)[] = [];
    for (const linkID of linkIDs) params.push(linkID, interview.id, interview.product_id, orgID, at, at);
    const conn = await pool.getConnection();
    try {
      await conn.beginTransaction();
      await conn.query(
        'INSERT INTO invites (link_id, interview_id, product_id, org_id, created_at, updated_at, user_info, status, completed_on, conversation) VALUES ' +
          linkIDs.map(() => "(?, ?, ?, ?, ?, ?, NULL, 'pending', NULL, '[]')").join(', '),
        params,
      );
      await conn.commit();
    } catch (error) {
      await conn.rollback().catch(() => undefined);
      throw error;
    } finally {
      conn.release();
    }
    const base = config.inviteBaseUrl;
    return [200, linkIDs.map((linkID) => `${base}/${linkID}`)];
  },
};

// ---------------------------------------------------------------------------------------------

function send(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function fail(res: ServerResponse, error: unknown): void {
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
    process.stderr.write(`baseline: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  send(res, status, { error: status, message });
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q + 1);
  if (path === '/health' && req.method === 'GET') {
    pool.query('SELECT 1').then(
      () => send(res, 200, { result: { status: 'ok', database: 'up' } }),
      (error: unknown) => fail(res, error),
    );
    return;
  }
  const handler = routes[`${req.method} ${path}`];
  if (!handler) return send(res, 404, { error: 404, message: `Cannot ${req.method} ${path}` });
  authenticate(req)
    .then((principal) => handler(req, search, principal))
    .then(
      ([status, result]) => send(res, status, { result }),
      (error: unknown) => fail(res, error),
    );
});

server.keepAliveTimeout = 5000;
server.listen(config.port, () => {
  process.stdout.write(`baseline listening on ${config.port}\n`);
});

function shutdown(): void {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
