import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, adminToken, startApp } from './helpers/app';
import { freePort, sleep } from './helpers/built-server';
import { ThrowawayMariadb, hasMariadb } from './helpers/mariadb';

/**
 * Database fault under load: this file runs its own throwaway MariaDB (own data directory, own
 * port, 127.0.0.1 only), kills it with SIGKILL while writes are running, checks that the service
 * answers 503 quickly and boundedly while the database is gone, restarts it on the same data
 * directory and checks that every route answers again within 5 s and that every acknowledged
 * write survived. It does not use the suite's shared database. Skipped (visibly) when the MariaDB
 * server binaries are not installed.
 */

jest.setTimeout(120_000);

/** Every request must complete within this while the database is gone (no hang). */
const OUTAGE_REQUEST_BOUND_MS = 5000;
/** Every route must answer 2xx within this of the database accepting connections again. */
const RECOVERY_BOUND_MS = 5000;
/** Client-side abort for any single request, so that a hang fails the test instead of stalling it. */
const CLIENT_ABORT_MS = 15_000;
const WRITE_CONCURRENCY = 4;
const MAX_WRITES = 300;
const KILL_AFTER_WRITES = 100;
const BURST = 50;

interface Reply {
  status: number;
  body: any;
  retryAfter: string | null;
  startedAt: number;
  endedAt: number;
  ms: number;
}

type Caller = (method: 'GET' | 'POST', path: string, opts?: { query?: Record<string, string | number>; body?: unknown; token?: string | null }) => Promise<Reply>;

/** One request to the service at `base`, with `admin` unless another token (or null, none) is given. */
async function callService(
  base: string,
  admin: string,
  method: 'GET' | 'POST',
  path: string,
  opts: { query?: Record<string, string | number>; body?: unknown; token?: string | null } = {},
): Promise<Reply> {
  const url = new URL(path, base);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? admin : opts.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const startedAt = Date.now();
  const res = await fetch(url, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(CLIENT_ABORT_MS),
  });
  const text = await res.text();
  const endedAt = Date.now();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, body, retryAfter: res.headers.get('retry-after'), startedAt, endedAt, ms: endedAt - startedAt };
}

/** The 503 envelope the contract promises while the database is gone or frozen. */
function expect503(r: Reply, what: string): void {
  expect({ what, status: r.status, body: r.body }).toEqual({ what, status: 503, body: { error: 503, message: expect.any(String) } });
}

/** Calls every route once, in dependency order; returns what was not 2xx. */
async function everyRouteOnce(call: Caller, productID: string, orgID: string): Promise<unknown[]> {
  const failures: unknown[] = [];
  const check = (name: string, r: Reply) => {
    if (r.status < 200 || r.status > 299) failures.push([name, r.status, r.body]);
    return r.status >= 200 && r.status <= 299;
  };
  check('products/getOne', await call('GET', '/v1/products/getOne', { query: { productID } }));
  check('products/getList', await call('GET', '/v1/products/getList', { query: { orgID } }));
  check('profiles/getList', await call('GET', '/v1/profiles/getList', { query: { productID } }));
  const interview = await call('POST', '/v1/interviews/addOne', { body: { productID, interviewName: 'after recovery' } });
  if (!check('interviews/addOne', interview)) return failures;
  const interviewID = interview.body.result.interviewID as string;
  check('interviews/getOne', await call('GET', '/v1/interviews/getOne', { query: { interviewID } }));
  const invites = await call('GET', '/v1/invites/createInvites', { query: { interviewID, count: 1 } });
  if (!check('invites/createInvites', invites)) return failures;
  const linkID = String(invites.body.result[0]).split('/').pop()!;
  check('invites/getOne', await call('GET', '/v1/invites/getOne', { query: { linkID } }));
  check('invites/getList', await call('GET', '/v1/invites/getList', { query: { interviewID } }));
  return failures;
}

/**
 * Polls /health and the full route set until all are 2xx, bounded well past the 5 s budget so that a
 * slow recovery is measured, not just reported as a timeout.
 */
async function recovery(call: Caller, everyRoute: () => Promise<unknown[]>, from: number): Promise<{ healthAt: number; allOkAt: number; lastFailure: unknown }> {
  const pollDeadline = from + RECOVERY_BOUND_MS * 3;
  let healthAt = 0;
  let allOkAt = 0;
  let lastFailure: unknown;
  while (Date.now() < pollDeadline && (!healthAt || !allOkAt)) {
    if (!healthAt) {
      const h = await call('GET', '/health', { token: null });
      if (h.status === 200) healthAt = h.endedAt;
      else lastFailure = ['health', h.status, h.body];
    }
    if (!allOkAt) {
      const failures = await everyRoute();
      if (failures.length === 0) allOkAt = Date.now();
      else lastFailure = failures;
    }
    if (!healthAt || !allOkAt) await sleep(100);
  }
  return { healthAt, allOkAt, lastFailure };
}

/**
 * A suite's own service on a throwaway MariaDB (`irs_<name>`), listening on a free port, with an admin
 * token and a product of `orgID` to exercise every route with; stopped and removed after the suite
 * (a frozen database thawed first).
 */
function useServiceOnThrowawayMariadb(
  name: string,
  orgID: string,
  env: Record<string, string>,
  bind: (rig: { db: ThrowawayMariadb; t: TestApp; base: string; admin: string; productID: string }) => unknown,
): void {
  let dir: string | undefined;
  let db: ThrowawayMariadb | undefined;
  let t: TestApp | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `irs-db${name}-`));
    db = new ThrowawayMariadb(dir, await freePort());
    db.install();
    db.start();
    await db.waitReady(30_000);
    await db.sql(`CREATE DATABASE irs_${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    t = await startApp({ DATABASE_URL: `mariadb://root@127.0.0.1:${db.port}/irs_${name}`, DB_CONNECT_TIMEOUT_MS: '1000', LOG_LEVEL: 'silent', ...env });
    await t.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    const admin = await adminToken(t);
    const created = await callService(base, admin, 'POST', '/v1/products/addOne', { body: { name: `${name} fixture`, orgID } });
    expect(created.status).toBe(201);
    await bind({ db, t, base, admin, productID: created.body.result.productID });
  }, 90_000);

  afterAll(async () => {
    db?.thaw();
    try {
      await t?.close();
    } finally {
      await db?.kill();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
}

const describeIfMariadb = hasMariadb ? describe : describe.skip;
if (!hasMariadb) process.stdout.write('\ndb-fault spec skipped: mariadbd and mariadb-install-db (or mysql_install_db) are not installed\n');

describeIfMariadb(`Database fault: a throwaway MariaDB killed under load${hasMariadb ? '' : ' (skipped: mariadbd or mariadb-install-db not installed)'}`, () => {
  let db: ThrowawayMariadb;
  let t: TestApp;
  let base: string;
  let admin: string;
  /** Created before the fault, used to exercise every route after it. */
  let productID: string;
  const orgID = `org_fault_${process.pid}`;

  const call: Caller = (method, path, opts = {}) => callService(base, admin, method, path, opts);
  const everyRoute = () => everyRouteOnce(call, productID, orgID);

  useServiceOnThrowawayMariadb('fault', orgID, { MIGRATIONS_RUN: 'true', RATE_LIMIT_MAX: '1000000' }, (rig) => ({ db, t, base, admin, productID } = rig));

  // Shared across the steps below, which run in order.
  const writes: (Reply & { i: number; productID?: string })[] = [];
  let killStartedAt = 0;
  let killedAt = 0;
  let freshToken: string;

  it('answers 503 within a bounded time, never 500, while the database is killed under a write load', async () => {
    // A token never used before the fault: its first check needs the database, which must mean 503, not 401.
    freshToken = await adminToken(t);
    let next = 0;
    let done = 0;
    let killing: Promise<void> | undefined;
    const loopDeadline = Date.now() + 60_000;

    const worker = async () => {
      while (next < MAX_WRITES && Date.now() < loopDeadline) {
        const i = next++;
        const r = await call('POST', '/v1/products/addOne', { body: { name: `fault write ${i}`, orgID } });
        writes.push({ ...r, i, productID: r.status === 201 ? r.body?.result?.productID : undefined });
        if (++done === KILL_AFTER_WRITES) {
          killStartedAt = Date.now();
          killing = db.kill().then(() => {
            killedAt = Date.now();
          });
        }
      }
    };
    await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, worker));
    await killing;
    expect(killedAt).toBeGreaterThan(0);

    const before = writes.filter((w) => w.endedAt < killStartedAt);
    const straddling = writes.filter((w) => w.endedAt >= killStartedAt && w.startedAt < killedAt);
    const outage = writes.filter((w) => w.startedAt >= killedAt);

    // Before the kill everything was written; across it, only 201 or 503; after it, 503 and quickly.
    expect(before.filter((w) => w.status !== 201).map((w) => [w.status, w.body])).toEqual([]);
    expect(straddling.filter((w) => w.status !== 201 && w.status !== 503).map((w) => [w.status, w.body])).toEqual([]);
    expect(outage.length).toBeGreaterThan(0);
    for (const w of [...straddling.filter((x) => x.status === 503), ...outage]) expect503(w, `write ${w.i}`);
    expect(outage.every((w) => w.retryAfter === '5')).toBe(true);
    const slowest = Math.max(...writes.filter((w) => w.endedAt >= killStartedAt).map((w) => w.ms));
    expect(slowest).toBeLessThan(OUTAGE_REQUEST_BOUND_MS);

    const first503 = Math.min(...writes.filter((w) => w.status === 503).map((w) => w.endedAt));
    process.stdout.write(
      `\ndb fault: writes ${writes.length} (201 before the kill: ${before.length}, across it: ${straddling.length}, during the outage: ${outage.length}); ` +
        `kill took ${killedAt - killStartedAt} ms; first 503 ${first503 - killStartedAt} ms after the kill; slowest request after the kill ${slowest} ms\n`,
    );
  });

  it('answers /health, a burst of reads and a never-seen token with 503 while the database is down', async () => {
    expect(killedAt).toBeGreaterThan(0);
    expect(db.running).toBe(false);

    const health = await call('GET', '/health', { token: null });
    expect503(health, 'health');
    expect(health.ms).toBeLessThan(OUTAGE_REQUEST_BOUND_MS);
    expect503(await call('GET', '/health/ready', { token: null }), 'readiness');
    // Liveness: the process answers; restarting it would not bring the database back.
    expect((await call('GET', '/health/live', { token: null })).status).toBe(200);

    // A burst far beyond the pool size: every request comes back, none waits in an unbounded queue.
    const burstStarted = Date.now();
    const burst = await Promise.all(Array.from({ length: BURST }, () => call('GET', '/v1/products/getOne', { query: { productID } })));
    const burstMs = Date.now() - burstStarted;
    for (const [i, r] of burst.entries()) expect503(r, `burst ${i}`);
    expect(burstMs).toBeLessThan(OUTAGE_REQUEST_BOUND_MS);

    // Token verification needs the database when the token is not cached: 503, never 401.
    const unseen = await call('GET', '/v1/products/getList', { query: { orgID }, token: freshToken });
    expect503(unseen, 'never-seen token');

    // Every route family, reads and writes.
    const routes = await Promise.all([
      call('GET', '/v1/products/getList', { query: { orgID } }),
      call('POST', '/v1/interviews/addOne', { body: { productID, interviewName: 'during outage' } }),
      call('GET', '/v1/invites/getList', { query: { productID } }),
      call('GET', '/v1/profiles/getList', { query: { productID } }),
    ]);
    for (const [i, r] of routes.entries()) expect503(r, `route ${i}`);
    const slowest = Math.max(...routes.map((r) => r.ms), ...burst.map((r) => r.ms));
    expect(slowest).toBeLessThan(OUTAGE_REQUEST_BOUND_MS);
    process.stdout.write(`db fault: /health 503 in ${health.ms} ms; burst of ${BURST} reads all 503 in ${burstMs} ms; slowest outage request ${slowest} ms\n`);
  });

  it('answers every route again within 5 s of the database coming back', async () => {
    expect(db.running).toBe(false);
    db.start();
    const restartedAt = Date.now();
    await db.waitReady(30_000);
    const dbReadyAt = Date.now();

    const { healthAt, allOkAt, lastFailure } = await recovery(call, everyRoute, dbReadyAt);
    process.stdout.write(
      `db fault: mariadbd accepted connections ${dbReadyAt - restartedAt} ms after the restart; ` +
        `/health 200 after ${healthAt ? `${healthAt - dbReadyAt} ms` : 'never'}; every route 2xx after ${allOkAt ? `${allOkAt - dbReadyAt} ms` : 'never'}\n`,
    );
    expect({ healthAt: !!healthAt, allOkAt: !!allOkAt, lastFailure: healthAt && allOkAt ? undefined : lastFailure }).toEqual({ healthAt: true, allOkAt: true, lastFailure: undefined });
    expect(healthAt - dbReadyAt).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    expect(allOkAt - dbReadyAt).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
  });

  it('keeps every write that was acknowledged with 201', async () => {
    const acknowledged = writes.filter((w) => w.status === 201);
    const beforeKill = acknowledged.filter((w) => w.endedAt < killStartedAt);
    expect(beforeKill.length).toBeGreaterThanOrEqual(KILL_AFTER_WRITES - WRITE_CONCURRENCY);
    const missing: unknown[] = [];
    for (let i = 0; i < acknowledged.length; i += 8) {
      const chunk = acknowledged.slice(i, i + 8);
      const reads = await Promise.all(chunk.map((w) => call('GET', '/v1/products/getOne', { query: { productID: w.productID! } })));
      reads.forEach((r, j) => {
        if (r.status !== 200 || r.body?.result?.name !== `fault write ${chunk[j].i}`) missing.push([chunk[j].productID, r.status, r.body]);
      });
    }
    expect(missing).toEqual([]);
    process.stdout.write(`writes verified after fault: ${acknowledged.length} (acknowledged before the kill: ${beforeKill.length})\n`);
  });
});

describeIfMariadb(`Database freeze: a throwaway MariaDB stopped (SIGSTOP) under load${hasMariadb ? '' : ' (skipped: mariadbd or mariadb-install-db not installed)'}`, () => {
  /** DB_STATEMENT_TIMEOUT_MS for this app: every request must be answered within it and a margin. */
  const TIMEOUT_MS = 1500;
  // Wide: a loaded two-core machine adds seconds of its own, and the point is that no request waits without bound.
  const MARGIN_MS = 3000;
  const FREEZE_MS = 5000;
  let db: ThrowawayMariadb;
  let base: string;
  let admin: string;
  let productID: string;
  const orgID = `org_freeze_${process.pid}`;
  const call: Caller = (method, path, opts = {}) => callService(base, admin, method, path, opts);

  useServiceOnThrowawayMariadb('freeze', orgID, { DB_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) }, (rig) => ({ db, base, admin, productID } = rig));

  it('answers every request within the statement timeout while the database is frozen, recovers after, and keeps every acknowledged write', async () => {
    const replies: (Reply & { kind: string; i: number })[] = [];
    let freezeAt = 0;
    let thawAt = 0;
    let stopLoad = false;
    let n = 0;
    const worker = async (kind: 'write' | 'read') => {
      while (!stopLoad) {
        const i = n++;
        const r =
          kind === 'write'
            ? await call('POST', '/v1/products/addOne', { body: { name: `freeze write ${i}`, orgID } })
            : await call('GET', '/v1/products/getOne', { query: { productID } });
        replies.push({ ...r, kind, i });
      }
    };
    const load = Promise.all([...Array.from({ length: 4 }, () => worker('write')), ...Array.from({ length: 4 }, () => worker('read'))]);

    await sleep(1000);
    db.freeze();
    freezeAt = Date.now();
    await sleep(FREEZE_MS / 2);
    const health = await call('GET', '/health', { token: null });
    await sleep(FREEZE_MS / 2);
    db.thaw();
    thawAt = Date.now();
    const { healthAt, allOkAt, lastFailure } = await recovery(call, () => everyRouteOnce(call, productID, orgID), thawAt);
    stopLoad = true;
    await load;

    // While frozen: /health 503, every request answered (201, 200 or 503) within the timeout and a margin.
    expect503(health, 'health during the freeze');
    expect(health.ms).toBeLessThanOrEqual(TIMEOUT_MS + MARGIN_MS);
    const overlapping = replies.filter((r) => r.endedAt >= freezeAt && r.startedAt <= thawAt);
    expect(overlapping.filter((r) => r.status !== 200 && r.status !== 201 && r.status !== 503).map((r) => [r.kind, r.status, r.body])).toEqual([]);
    const unavailable = overlapping.filter((r) => r.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const r of unavailable) expect503(r, `${r.kind} ${r.i}`);
    expect(unavailable.every((r) => r.retryAfter === '5')).toBe(true);
    const waits = overlapping.map((r) => r.ms).sort((x, y) => x - y);
    const max = waits[waits.length - 1];
    const p99 = waits[Math.min(waits.length - 1, Math.ceil(waits.length * 0.99) - 1)];
    expect(max).toBeLessThanOrEqual(TIMEOUT_MS + MARGIN_MS);

    // After the thaw: every route 2xx within 5 s.
    expect({ healthAt: !!healthAt, allOkAt: !!allOkAt, lastFailure: healthAt && allOkAt ? undefined : lastFailure }).toEqual({ healthAt: true, allOkAt: true, lastFailure: undefined });
    expect(allOkAt - thawAt).toBeLessThanOrEqual(RECOVERY_BOUND_MS);

    // Every write answered 201 is there.
    const acknowledged = replies.filter((r) => r.kind === 'write' && r.status === 201);
    const missing: unknown[] = [];
    for (const w of acknowledged) {
      const read = await call('GET', '/v1/products/getOne', { query: { productID: w.body.result.productID } });
      if (read.status !== 200 || read.body.result.name !== `freeze write ${w.i}`) missing.push([w.i, read.status]);
    }
    expect(missing).toEqual([]);
    process.stdout.write(
      `db freeze (statement timeout ${TIMEOUT_MS} ms, frozen ${thawAt - freezeAt} ms): ${overlapping.length} requests overlapped the freeze, ` +
        `${unavailable.length} answered 503; wait max ${max} ms, p99 ${p99} ms; /health 503 in ${health.ms} ms; ` +
        `after the thaw /health 200 in ${healthAt - thawAt} ms and every route 2xx in ${allOkAt - thawAt} ms; ${acknowledged.length} acknowledged writes all there\n`,
    );
  });
});
