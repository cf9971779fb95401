/**
 * The benchmark's dataset: seeded through the service's own code in the seed's Nest application
 * context (SeedModule: SeedService, InvitesService.insertInvites, InviteLifecycleService), or reused
 * from a previous run (--skip-seed) after checking it is still there; and the cleanup that keeps
 * every measurement on the same rows.
 */
import { NestFactory } from '@nestjs/core';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { createLogger } from '../src/common/logger';
import { hashToken } from '../src/auth/token-cache';
import { TokensService } from '../src/auth/tokens.service';
import { loadConfig } from '../src/config/app-config';
import { InvitesService } from '../src/invites/invites.service';
import { RoomService } from '../src/room/room.service';
import { DemoRandom, demo } from '../src/seed/demo-data';
import { SeedModule } from '../src/seed/seed.module';
import { SeedProgress, SeedService } from '../src/seed/seed.service';
import { DATASET_FILE, Options, ROOT, UsageError, log, sleep } from './cli';

export interface Dataset {
  version: 1;
  createdAt: string;
  database: string;
  /** Organization of exactly N products, for getList at 100, 1,000 and 10,000 rows. */
  orgs: Record<'100' | '1000' | '10000', string>;
  /** products/getOne target (in the 10,000 organization). */
  productID: string;
  /** The interview with 1,000 invites, each completed with a 20-turn transcript. */
  readInterviewID: string;
  /** invites/getOne target: one of those invites. */
  linkID: string;
  /** createInvites target: its invites are deleted after every measurement. */
  writeInterviewID: string;
  /** Organization of the products addOne creates: deleted after every measurement. */
  writeOrgID: string;
  counts: { products: number; invites: number; profiles: number; interviews: number };
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url.replace(/^mariadb:/i, 'mysql:')).pathname.replace(/^\//, ''));
}

function quietProgress(label: string): SeedProgress {
  let total = 0;
  let what = '';
  let started = 0;
  return {
    start(n, w) {
      total = n;
      what = w;
      started = Date.now();
    },
    tick() {},
    stop() {
      if (total > 0) log(`  ${label}: ${total.toLocaleString('en-US')} ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
  };
}

/**
 * RoomService.reply, again (same answer) when its transaction deadlocked: two completions of one owner's
 * interviews at once can deadlock on the profiles' unique key (the service answers 503, try again);
 * here four interviews run at once.
 */
async function replyRetrying(room: RoomService, linkID: string, content: string): ReturnType<RoomService['reply']> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await room.reply(linkID, { content });
    } catch (error) {
      const e = error as { code?: unknown; driverError?: { code?: unknown } };
      if (attempt >= 5 || (e.driverError?.code ?? e.code) !== 'ER_LOCK_DEADLOCK') throw error;
      await sleep(20 * attempt);
    }
  }
}

type SeedContext = Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;

async function seed(app: SeedContext, url: string): Promise<Dataset> {
  const seeder = app.get(SeedService);
  const dataSource = app.get(DataSource);
  const stamp = `bench${Date.now().toString(36)}`;
  const base = { interviews: 0, invites: 0, turns: 0, profiles: 0, seed: 42 };
  const counts = { products: 0, invites: 0, profiles: 0, interviews: 0 };
  const add = (r: { products: number; invites: number; profiles: number; interviews: number }) => {
    counts.products += r.products;
    counts.invites += r.invites;
    counts.profiles += r.profiles;
    counts.interviews += r.interviews;
  };

  // Three organizations of exactly 100, 1,000 and 10,000 products, with profiles and interviews on the smaller ones.
  const p100 = await seeder.run({ ...base, orgs: 1, users: 5, products: 100, interviews: 1, profiles: 2, seed: 1, prefix: `${stamp}-p100` }, quietProgress('org of 100'));
  add(p100);
  const p1k = await seeder.run({ ...base, orgs: 1, users: 20, products: 1000, profiles: 1, seed: 2, prefix: `${stamp}-p1k` }, quietProgress('org of 1,000'));
  add(p1k);
  const p10k = await seeder.run({ ...base, orgs: 1, users: 50, products: 10_000, seed: 3, prefix: `${stamp}-p10k` }, quietProgress('org of 10,000'));
  add(p10k);
  // Two products with one interview each: the first gets 1,000 invites with transcripts, the second takes createInvites.
  const inv = await seeder.run({ ...base, orgs: 1, users: 1, products: 2, interviews: 1, profiles: 2, seed: 4, prefix: `${stamp}-inv` }, quietProgress('interviews'));
  add(inv);

  const [readInterview, writeInterview] = (await dataSource.query(
    'SELECT i.id, i.product_id FROM interviews i INNER JOIN products p ON p.id = i.product_id WHERE p.org_id = ? ORDER BY i.created_at, i.id',
    [inv.orgIDs[0]],
  )) as { id: string; product_id: string }[];

  // 1,000 interviews through the room with the built-in agent: short answers get probed, long ones
  // move on, so each transcript has about 16 turns.
  const started = Date.now();
  const room = app.get(RoomService);
  const links = await app.get(InvitesService).insertInvites({ interviewID: readInterview.id, productID: readInterview.product_id, orgID: inv.orgIDs[0] }, 1000);
  const r = new DemoRandom(5);
  let next = 0;
  const worker = async () => {
    while (next < links.length) {
      const linkID = links[next++];
      const person = demo.person(r);
      await room.start(linkID, { name: `${person.first} ${person.last}`, email: person.email, occupation: person.occupation, consent: true });
      for (let i = 0; (await replyRetrying(room, linkID, i % 2 === 0 ? 'Not really.' : demo.answer(r))).status !== 'completed'; i++);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  counts.invites += links.length;
  log(`  1,000 interviews conducted and completed in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // SeedService issues two tokens per run; the benchmark uses its own, so these are revoked at once.
  const seedTokens = [p100, p1k, p10k, inv].flatMap((r) => [r.adminToken, r.orgToken]).map(hashToken);
  await dataSource.query('UPDATE api_tokens SET revoked_at = ? WHERE token_hash IN (?)', [new Date(), seedTokens]);

  const [middle] = (await dataSource.query('SELECT id FROM products WHERE org_id = ? ORDER BY created_at, id LIMIT 1 OFFSET 5000', [p10k.orgIDs[0]])) as { id: string }[];
  return {
    version: 1,
    createdAt: new Date().toISOString(),
    database: databaseName(url),
    orgs: { '100': p100.orgIDs[0], '1000': p1k.orgIDs[0], '10000': p10k.orgIDs[0] },
    productID: middle.id,
    readInterviewID: readInterview.id,
    linkID: links[0],
    writeInterviewID: writeInterview.id,
    writeOrgID: `${stamp}-writes`,
    counts,
  };
}

async function checkDataset(pool: Pool, d: Dataset, url: string): Promise<void> {
  const file = relative(ROOT, DATASET_FILE);
  if (d.version !== 1) throw new Error(`${file} is from another version of the harness: run without --skip-seed`);
  if (d.database !== databaseName(url)) throw new Error(`${file} describes database "${d.database}", not "${databaseName(url)}": run without --skip-seed`);
  for (const [size, orgID] of Object.entries(d.orgs)) {
    const [[row]] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM products WHERE org_id = ?', [orgID]);
    if (Number(row.n) !== Number(size)) throw new Error(`organization ${orgID} has ${row.n} products, expected ${size}: run without --skip-seed`);
  }
  const [[inv]] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM invites WHERE interview_id = ?', [d.readInterviewID]);
  if (Number(inv.n) !== 1000) throw new Error(`interview ${d.readInterviewID} has ${inv.n} invites, expected 1000: run without --skip-seed`);
}

/**
 * The dataset (seeded, or the previous run's with --skip-seed) and an admin token for the run, through
 * the seed's own application context (SeedModule, without the HTTP service); migrations run here when needed.
 */
export async function prepareDataset(o: Options, url: string, pool: Pool): Promise<{ dataset: Dataset; token: string; tokenID: string }> {
  log(`Booting the seed's application context (SeedModule) on ${databaseName(url)}...`);
  const app = await NestFactory.createApplicationContext(SeedModule.forRoot(loadConfig()), { logger: createLogger({ logLevel: 'warn', logFormat: 'json' }) });
  try {
    let dataset: Dataset;
    if (o.skipSeed) {
      if (!existsSync(DATASET_FILE)) throw new UsageError(`--skip-seed: ${relative(ROOT, DATASET_FILE)} does not exist; run once without --skip-seed`);
      dataset = JSON.parse(readFileSync(DATASET_FILE, 'utf8')) as Dataset;
      await checkDataset(pool, dataset, url);
      log(`Reusing the dataset of ${dataset.createdAt} (${relative(ROOT, DATASET_FILE)}).`);
    } else {
      log('Seeding through SeedService, InvitesService and InviteLifecycleService...');
      const t0 = Date.now();
      dataset = await seed(app, url);
      writeFileSync(DATASET_FILE, `${JSON.stringify(dataset, null, 2)}\n`);
      log(`Seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s; ids in ${relative(ROOT, DATASET_FILE)}.`);
    }
    const created = await app.get(TokensService).create({ isAdmin: true, name: 'bench admin' });
    return { dataset, token: created.token, tokenID: created.id };
  } finally {
    await app.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Cleanup of what the write operations add

/** Until no other connection runs a statement on the database (seen three times in a row), at most 60 s. */
async function waitDbIdle(pool: Pool, database: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let quiet = 0;
  while (quiet < 3 && Date.now() < deadline) {
    const [[row]] = await pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND COMMAND NOT IN ('Sleep', 'Daemon') AND ID <> CONNECTION_ID()",
      [database],
    );
    quiet = Number(row.n) === 0 ? quiet + 1 : 0;
    if (quiet < 3) await sleep(100);
  }
}

/**
 * Deletes what the write operations added, so every measurement sees the same dataset. Waits for
 * the writes still running when the load generator stopped, and retries a DELETE that deadlocks with one.
 */
export async function cleanWrites(pool: Pool, d: Dataset): Promise<void> {
  await waitDbIdle(pool, d.database);
  for (let attempt = 1; ; attempt++) {
    try {
      await pool.query('DELETE FROM invites WHERE interview_id = ?', [d.writeInterviewID]);
      await pool.query('DELETE FROM products WHERE org_id = ?', [d.writeOrgID]);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 10 || (code !== 'ER_LOCK_DEADLOCK' && code !== 'ER_LOCK_WAIT_TIMEOUT')) throw error;
      await sleep(500);
      await waitDbIdle(pool, d.database);
    }
  }
}

/** Pause after a cleanup, so that InnoDB's purge of the deleted rows does not fall on the next measurement. */
export const PURGE_PAUSE_MS = 3000;

/** cleanWrites, then the pause for the purge: after every write measurement. */
export async function settleAfterCleanup(pool: Pool, d: Dataset): Promise<void> {
  await cleanWrites(pool, d);
  await sleep(PURGE_PAUSE_MS);
}
