/**
 * The benchmark's dataset: seeded through the service's own code in the seed's Nest application
 * context (SeedModule: SeedService, InvitesService.insertInvites, InviteLifecycleService, RoomService;
 * with InterviewsModule for the room's interview), or reused from a previous run (--skip-seed) after
 * checking it is still there; and the cleanup that keeps every measurement on the same rows.
 */
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { createPool, type Pool, type RowDataPacket } from 'mysql2/promise';
import { BIG_LIST_INVITES, BIG_LIST_TURNS, seedBigList } from './biglist';
import { STUDY_INVITES, STUDY_QUESTIONS, seedStudy, studyGuidelines } from './study';
import { inTransaction } from './baseline/transaction';
import { DataSource } from 'typeorm';
import { hashToken } from '../src/auth/token-cache';
import { TokensService } from '../src/auth/tokens.service';
import { loadConfig } from '../src/config/app-config';
import { Logger } from 'nestjs-pino';
import { BUILT_IN_INTERVIEWER } from '../src/interviewers/interviewer.limits';
import { InterviewsModule } from '../src/interviews/interviews.module';
import { InterviewsService } from '../src/interviews/interviews.service';
import { InvitesService } from '../src/invites/invites.service';
import { RoomService } from '../src/room/room.service';
import { DemoRandom, demo } from '../src/seed/demo-data';
import { SeedModule } from '../src/seed/seed.module';
import { SeedProgress, SeedService } from '../src/seed/seed.service';
import { sqlDate } from '../src/database/column-types';
import { DATASET_FILE, Options, ROOT, UsageError, log, sleep } from './cli';

export interface Dataset {
  version: 4;
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
  /** room/reply: an interview of ROOM_QUESTIONS questions (built-in agent) and its ROOM_INVITES started invites. */
  roomInterviewID: string;
  roomLinks: string[];
  /** Lists at scale: an interview of BIG_LIST_INVITES completed invites with BIG_LIST_TURNS-turn transcripts. */
  bigListInterviewID: string;
  /** Insights at scale: an interview of STUDY_INVITES completed invites of STUDY_QUESTIONS answers each. */
  studyInterviewID: string;
  counts: { products: number; invites: number; profiles: number; interviews: number };
}

/**
 * room/reply's interview asks this many questions: an invite takes this many answers (all long enough
 * not to be probed), then "anything else?" is answered once more and the next answer completes it.
 */
export const ROOM_QUESTIONS = 300;
/** Invites started for room/reply: 32 per connection at the default 16. */
export const ROOM_INVITES = 512;
/** What RoomService.start leaves: the consent note and the opening question. */
export const ROOM_START_TURNS = 2;

/** One question per line, numbered as research teams write them (the agent strips the numbers), and a note. */
function roomGuidelines(): string {
  const lines = ['Notes for the team: keep it short, ask for examples.'];
  for (let i = 1; i <= ROOM_QUESTIONS; i++) lines.push(`${i}. What did you try in step ${i}, and how did it go?`);
  return lines.join('\n');
}

function mysqlPool(url: string): Pool {
  return createPool({ uri: url.replace(/^mariadb:/i, 'mysql:'), connectionLimit: 2, timezone: 'Z' });
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
      for (let i = 0; (await room.reply(linkID, { content: i % 2 === 0 ? 'Not really.' : demo.answer(r) })).status !== 'completed'; i++);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  counts.invites += links.length;
  log(`  1,000 interviews conducted and completed in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // room/reply: an interview of 300 questions through InterviewsService (its agent set to the built-in
  // one whatever DEFAULT_INTERVIEWER says), and 512 invites started through RoomService.start.
  const admin = { tokenId: 'bench', isAdmin: true, orgID: null, userID: null };
  const interviews = app.get(InterviewsService);
  const { interviewID: roomInterviewID } = await interviews.create(
    { productID: readInterview.product_id, interviewName: `Bench room, ${ROOM_QUESTIONS} questions`, guidelines: roomGuidelines() },
    admin,
  );
  await interviews.update({ interviewID: roomInterviewID, interviewer: BUILT_IN_INTERVIEWER }, admin);
  const roomLinks = await app.get(InvitesService).insertInvites({ interviewID: roomInterviewID, productID: readInterview.product_id, orgID: inv.orgIDs[0] }, ROOM_INVITES);
  next = 0;
  const starter = async () => {
    while (next < roomLinks.length) {
      const person = demo.person(r);
      await room.start(roomLinks[next++], { name: `${person.first} ${person.last}`, email: person.email, occupation: person.occupation, consent: true });
    }
  };
  await Promise.all(Array.from({ length: 4 }, starter));
  counts.interviews += 1;
  counts.invites += roomLinks.length;
  log(`  ${ROOM_INVITES} invites of a ${ROOM_QUESTIONS}-question interview started`);

  // Lists at scale: another interview of the same product, its invites written straight into the table.
  const pool = mysqlPool(url);
  let bigListInterviewID: string;
  try {
    ({ interviewID: bigListInterviewID } = await interviews.create({ productID: readInterview.product_id, interviewName: 'Bench: a big study' }, admin));
    const t0 = Date.now();
    await seedBigList(pool, { interviewID: bigListInterviewID, productID: readInterview.product_id, orgID: inv.orgIDs[0] });
    log(`  ${BIG_LIST_INVITES.toLocaleString('en-US')} invites with ${BIG_LIST_TURNS}-turn transcripts written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await pool.end();
  }
  counts.interviews += 1;
  counts.invites += BIG_LIST_INVITES;

  // Insights at scale: a study of 10,000 completed interviews of 10 questions, on a product of its own.
  const studyPool = mysqlPool(url);
  let studyInterviewID: string;
  try {
    ({ interviewID: studyInterviewID } = await interviews.create(
      { productID: readInterview.product_id, interviewName: 'Bench: a study of 10,000 interviews', guidelines: studyGuidelines() },
      admin,
    ));
    const t0 = Date.now();
    await seedStudy(studyPool, { interviewID: studyInterviewID, productID: readInterview.product_id, orgID: inv.orgIDs[0] });
    log(`  ${STUDY_INVITES.toLocaleString('en-US')} completed interviews of ${STUDY_QUESTIONS} questions written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await studyPool.end();
  }
  counts.interviews += 1;
  counts.invites += STUDY_INVITES;

  // SeedService issues two tokens per run; the benchmark uses its own, so these are revoked at once.
  const seedTokens = [p100, p1k, p10k, inv].flatMap((r) => [r.adminToken, r.orgToken]).map(hashToken);
  await dataSource.query('UPDATE api_tokens SET revoked_at = ? WHERE token_hash IN (?)', [new Date(), seedTokens]);

  const [middle] = (await dataSource.query('SELECT id FROM products WHERE org_id = ? ORDER BY created_at, id LIMIT 1 OFFSET 5000', [p10k.orgIDs[0]])) as { id: string }[];
  return {
    version: 4,
    createdAt: new Date().toISOString(),
    database: databaseName(url),
    orgs: { '100': p100.orgIDs[0], '1000': p1k.orgIDs[0], '10000': p10k.orgIDs[0] },
    productID: middle.id,
    readInterviewID: readInterview.id,
    linkID: links[0],
    writeInterviewID: writeInterview.id,
    writeOrgID: `${stamp}-writes`,
    roomInterviewID,
    roomLinks,
    bigListInterviewID,
    studyInterviewID,
    counts,
  };
}

async function checkDataset(pool: Pool, d: Dataset, url: string): Promise<void> {
  const file = relative(ROOT, DATASET_FILE);
  if (d.version !== 4) throw new Error(`${file} is from another version of the harness: run without --skip-seed`);
  if (d.database !== databaseName(url)) throw new Error(`${file} describes database "${d.database}", not "${databaseName(url)}": run without --skip-seed`);
  for (const [size, orgID] of Object.entries(d.orgs)) {
    const [[row]] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM products WHERE org_id = ?', [orgID]);
    if (Number(row.n) !== Number(size)) throw new Error(`organization ${orgID} has ${row.n} products, expected ${size}: run without --skip-seed`);
  }
  const [[inv]] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM invites WHERE interview_id = ?', [d.readInterviewID]);
  if (Number(inv.n) !== 1000) throw new Error(`interview ${d.readInterviewID} has ${inv.n} invites, expected 1000: run without --skip-seed`);
  // The room's invites must outlive the run (INVITE_TTL_DAYS after seeding): a day to spare.
  const [[room]] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM invites WHERE interview_id = ? AND expires_on > ?', [
    d.roomInterviewID,
    sqlDate(new Date(Date.now() + 86_400_000)),
  ]);
  const [[study]] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n, SUM(answer_count) AS answers FROM invites WHERE interview_id = ?', [d.studyInterviewID]);
  if (Number(study.n) !== STUDY_INVITES) throw new Error(`interview ${d.studyInterviewID} has ${study.n} invites, expected ${STUDY_INVITES}: run without --skip-seed`);
  const [[big]] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM invites WHERE interview_id = ?', [d.bigListInterviewID]);
  if (Number(big.n) !== BIG_LIST_INVITES) throw new Error(`interview ${d.bigListInterviewID} has ${big.n} invites, expected ${BIG_LIST_INVITES}: run without --skip-seed`);
  if (Number(room.n) !== d.roomLinks.length) throw new Error(`interview ${d.roomInterviewID} has ${room.n} invites valid for another day, expected ${d.roomLinks.length}: run without --skip-seed`);
}

/** The seed's application context, with InterviewsModule for the room's interview (SeedModule leaves it out). */
@Module({})
class BenchSeedModule {
  static forRoot(): DynamicModule {
    return { module: BenchSeedModule, imports: [SeedModule.forRoot(loadConfig({ ...loadConfig().env, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' })), InterviewsModule] };
  }
}

/**
 * The dataset (seeded, or the previous run's with --skip-seed) and an admin token for the run, through
 * the seed's own application context (SeedModule, without the HTTP service); migrations run here when needed.
 */
export async function prepareDataset(o: Options, url: string, pool: Pool): Promise<{ dataset: Dataset; token: string; tokenID: string }> {
  log(`Booting the seed's application context (SeedModule) on ${databaseName(url)}...`);
  const app = await NestFactory.createApplicationContext(BenchSeedModule.forRoot(), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  try {
    let dataset: Dataset;
    if (o.skipSeed) {
      if (!existsSync(DATASET_FILE)) throw new UsageError(`--skip-seed: ${relative(ROOT, DATASET_FILE)} does not exist; run once without --skip-seed`);
      dataset = JSON.parse(readFileSync(DATASET_FILE, 'utf8')) as Dataset;
      await checkDataset(pool, dataset, url);
      log(`Reusing the dataset of ${dataset.createdAt} (${relative(ROOT, DATASET_FILE)}).`);
    } else {
      log('Seeding through SeedService, InterviewsService, InvitesService, InviteLifecycleService and RoomService...');
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

// ---------------------------------------------------------------------------------------------
// room/reply: every measurement starts on the transcripts RoomService.start left

/** What room/reply did to its invites: their transcripts' length (turns) and how many it completed. */
export interface RoomState {
  meanTurns: number;
  maxTurns: number;
  completed: number;
}

/**
 * Puts every room invite back as RoomService.start left it (started, the first two turns, byte for
 * byte as the service wrote them, and no answer digests), in one transaction; returns what it found. Deleting the answers
 * rather than seeding new invites keeps the measurements on the same rows.
 */
export async function resetRoom(pool: Pool, d: Dataset): Promise<RoomState> {
  await waitDbIdle(pool, d.database);
  const [rows] = await pool.query<RowDataPacket[]>('SELECT link_id, status, conversation, turn_meta FROM invites WHERE interview_id = ?', [d.roomInterviewID]);
  let turns = 0;
  const state: RoomState = { meanTurns: 0, maxTurns: 0, completed: 0 };
  await inTransaction(pool, async (conn) => {
    for (const row of rows) {
      const conversation = JSON.parse(row.conversation as string) as unknown[];
      turns += conversation.length;
      state.maxTurns = Math.max(state.maxTurns, conversation.length);
      if (row.status === 'completed') state.completed++;
      if (conversation.length === ROOM_START_TURNS && row.status === 'started') continue;
      if (conversation.length < ROOM_START_TURNS) throw new Error(`room invite ${row.link_id as string} was never started: run without --skip-seed`);
      const turnMeta = row.turn_meta === null ? null : JSON.stringify((JSON.parse(row.turn_meta as string) as unknown[]).slice(0, ROOM_START_TURNS));
      // quality: the flags its answers raised go with them (a flagged invite skips the duplicate lookup).
      await conn.query("UPDATE invites SET status = 'started', completed_on = NULL, conversation = ?, turn_meta = ?, answer_count = 0, quality = NULL WHERE link_id = ?", [
        JSON.stringify(conversation.slice(0, ROOM_START_TURNS)),
        turnMeta,
        row.link_id,
      ]);
    }
    // The digests the service keeps of the answers go with them (an earlier build under --compare writes none).
    await conn.query('DELETE FROM invite_answer_digests WHERE interview_id = ? AND turn_index >= ?', [d.roomInterviewID, ROOM_START_TURNS]);
  });
  state.meanTurns = rows.length ? turns / rows.length : 0;
  return state;
}
