/**
 * The floor of `npm run bench`: the least this stack (Node + mysql2 + MySQL/MariaDB) needs for the
 * operations the benchmark drives. No framework, no ORM: node:http routes each request to the work
 * of work.ts (token check, validation, the service's SQL, the service's JSON), which bare Nest
 * (nest-bare.ts) shares.
 *
 * What it does not do, so that the ratios show it: log per request, set security, rate-limit or
 * request-id headers, page lists (limit/cursor). The request body is read and parsed by hand.
 *
 * Routes: GET /health, GET /v1/products/getOne, GET /v1/products/getList, POST /v1/products/addOne,
 * GET /v1/invites/getOne, GET /v1/invites/getList, GET /v1/invites/createInvites, and without a token
 * POST /i/{linkID}/reply (room.ts).
 * Configuration: the service's own environment (loadConfig), PORT to listen on.
 */
import type { Principal } from '../../src/auth/principal';
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { ROOM_LIMITS } from '../../src/room/room.limits';
import { roomReply } from './room';
import * as work from './work';

type Handler = (req: IncomingMessage, query: URLSearchParams, p: Principal) => Promise<unknown>;

const routes: Record<string, [status: number, handler: Handler]> = {
  'GET /v1/products/getOne': [200, (_req, q, p) => work.productsGetOne(p, q)],
  'GET /v1/products/getList': [200, (_req, q, p) => work.productsGetList(p, q)],
  'POST /v1/products/addOne': [201, async (req, q, p) => work.productsAddOne(p, q, await readJsonBody(req))],
  'GET /v1/invites/getOne': [200, (_req, q, p) => work.invitesGetOne(p, q)],
  'GET /v1/invites/getList': [200, (_req, q, p) => work.invitesGetList(p, q)],
  'GET /v1/invites/createInvites': [200, (_req, q, p) => work.invitesCreateInvites(p, q)],
};

/** The interview room's answers: the link is the credential. */
const ROOM_REPLY = /^\/i\/([^/]+)\/reply$/;

/** The body as one JSON value: 415 without application/json, 413 over `limit` (BODY_LIMIT_BYTES; 16 KB in the room), 400 when not JSON. */
async function readJsonBody(req: IncomingMessage, limit = work.config.bodyLimitBytes): Promise<unknown> {
  work.requireJson(req.headers['content-type']);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new work.HttpError(413, 'request body is too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new work.HttpError(400, 'request body is not valid JSON');
  }
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function fail(res: ServerResponse, error: unknown): void {
  const { status, body, headers } = work.errorReply(error, 'floor');
  send(res, status, body, headers);
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  if (path === '/health' && req.method === 'GET') {
    work.health().then(
      (result) => send(res, 200, { result }),
      (error: unknown) => fail(res, error),
    );
    return;
  }
  const room = req.method === 'POST' ? ROOM_REPLY.exec(path) : null;
  if (room) {
    readJsonBody(req, ROOM_LIMITS.bodyBytes)
      .then((body) => roomReply(decodeURIComponent(room[1]), body))
      .then(
        (result) => send(res, 200, { result }),
        (error: unknown) => fail(res, error),
      );
    return;
  }
  const route = routes[`${req.method} ${path}`];
  if (!route) return send(res, 404, { error: 404, message: `Cannot ${req.method} ${path}` });
  const [status, handler] = route;
  work.authenticate(req.headers.authorization)
    .then((principal) => handler(req, query, principal))
    .then(
      (result) => send(res, status, { result }),
      (error: unknown) => fail(res, error),
    );
});

server.keepAliveTimeout = 5000;
server.listen(work.config.port, () => {
  process.stdout.write(`floor listening on ${work.config.port}\n`);
});

function shutdown(): void {
  server.close();
  server.closeAllConnections();
  void work.pool.end().finally(() => process.exit(0));
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
