import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { ENGINE } from '../src/config/engine';
import { sqlDate } from '../src/database/column-types';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { migrations } from '../src/database/migrations';
import { Insights1764000000000 } from '../src/database/migrations/1764000000000-insights';
import { ExactIdentifiers1767000000000 } from '../src/database/migrations/1767000000000-exact-identifiers';
import { AnswerDigests1767600000000 } from '../src/database/migrations/1767600000000-answer-digests';
import { EmailDigests1767700000000 } from '../src/database/migrations/1767700000000-email-digests';

/**
 * Migrations run on databases that hold data: each is tried on a fresh database of the run's engine
 * migrated to just before it, with rows as the service wrote them then.
 */
describe(`Migrations on existing data (${ENGINE})`, () => {
  const cleanups: (() => Promise<void>)[] = [];

  /** A new empty database of the run's engine: its URL (dropped after the suite). */
  async function newDatabase(): Promise<string> {
    if (ENGINE === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'irs-migrations-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      return `sqlite:${join(dir, 'm.sqlite')}`;
    }
    const server = new URL(process.env.DATABASE_URL!.replace(/^mariadb:/i, 'mysql:'));
    const database = `irs_migrations_${process.pid}_${Date.now()}_${cleanups.length}`;
    const admin = await createConnection({ host: server.hostname, port: Number(server.port || 3306), user: decodeURIComponent(server.username), password: decodeURIComponent(server.password) });
    await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    cleanups.push(async () => {
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.end();
    });
    server.pathname = `/${database}`;
    return server.toString();
  }

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  /** A DataSource on a new database with the migrations up to (not including) `before`. */
  async function migratedUpTo(before: (typeof migrations)[number]): Promise<DataSource> {
    const url = await newDatabase();
    const options = buildDataSourceOptions({ ...loadConfig({ ...process.env, DATABASE_URL: url }), migrationsRun: false });
    const db = new DataSource({ ...options, migrations: migrations.slice(0, migrations.indexOf(before)) });
    await db.initialize();
    await db.runMigrations();
    return db;
  }

  it('Insights: invites keep their start, language, answer count and what is known of each turn', async () => {
    const db = await migratedUpTo(Insights1764000000000);
    const now = sqlDate(new Date('2026-11-20T10:05:00.000Z'));
    const expires = sqlDate(new Date('2026-12-20T10:00:00.000Z'));
    await db.query("INSERT INTO products (id, name, org_id, created_at, updated_at) VALUES ('p1', 'Acme', 'org', ?, ?)", [now, now]);
    await db.query("INSERT INTO interviews (id, product_id, name, interviewer, created_at, updated_at) VALUES ('i1', 'p1', 'Study', 'default', ?, ?)", [now, now]);
    const consent = { role: 'system', content: 'Consent given 2026-11-20T10:00:00.000Z: recorded.' };
    const started = [consent, { role: 'interviewer', content: 'Q0?' }, { role: 'interviewee', content: 'A0' }, { role: 'interviewer', content: 'Q1?' }];
    const completed = [...started, { role: 'interviewee', content: 'A1' }, { role: 'interviewer', content: 'Bye.' }];
    const insert = (linkID: string, status: string, conversation: unknown[]) =>
      db.query(
        'INSERT INTO invites (link_id, interview_id, product_id, org_id, user_info, status, created_at, updated_at, completed_on, expires_on, conversation) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, NULL, ?, ?)',
        [linkID, 'i1', 'p1', 'org', status, now, now, expires, JSON.stringify(conversation)],
      );
    await insert('pending-link', 'pending', []);
    await insert('started-link', 'started', started);
    await insert('completed-link', 'completed', completed);

    await new Insights1764000000000().up(db.createQueryRunner());
    const rows = (await db.query('SELECT link_id AS linkID, started_on AS startedOn, language, answer_count AS answers, turn_meta AS meta FROM invites ORDER BY link_id')) as {
      linkID: string;
      startedOn: Date | string | null;
      language: string | null;
      answers: number | string;
      meta: string;
    }[];
    const read = Object.fromEntries(rows.map((r) => [r.linkID, { ...r, answers: Number(r.answers), meta: JSON.parse(r.meta), startedOn: r.startedOn === null ? null : new Date(r.startedOn instanceof Date ? r.startedOn : `${r.startedOn.replace(' ', 'T')}Z`).toISOString() }]));
    const start = '2026-11-20T10:00:00.000Z';
    const last = '2026-11-20T10:05:00.000Z';
    expect(read['pending-link']).toMatchObject({ startedOn: null, language: null, answers: 0, meta: [] });
    expect(read['started-link']).toMatchObject({
      startedOn: start,
      language: 'en',
      answers: 1,
      // The consent and the opening at the start; the last answer and question at the last change.
      meta: [start, start, last, last].map((at) => ({ at, questionIndex: null })),
    });
    expect(read['completed-link']).toMatchObject({
      startedOn: start,
      answers: 2,
      meta: [start, start, null, null, null, null].map((at) => ({ at, questionIndex: null })),
    });
    await db.destroy();
  });

  it('ExactIdentifiers: "orgB " no longer finds orgB\'s rows; data, keys and foreign keys survive, and down reverses it', async () => {
    const db = await migratedUpTo(ExactIdentifiers1767000000000);
    const now = sqlDate(new Date('2026-11-20T10:05:00.000Z'));
    await db.query("INSERT INTO products (id, name, org_id, created_at, updated_at) VALUES ('p1', 'Acme', 'orgB', ?, ?)", [now, now]);
    await db.query("INSERT INTO interviews (id, product_id, name, interviewer, created_at, updated_at) VALUES ('i1', 'p1', 'Study', 'default', ?, ?)", [now, now]);
    const padded = async () => (await db.query("SELECT id FROM products WHERE org_id = 'orgB '")).length;
    // Before: MySQL/MariaDB pad trailing spaces in utf8mb4_bin, which is the hole this migration closes.
    expect(await padded()).toBe(ENGINE === 'mysql' ? 1 : 0);

    await new ExactIdentifiers1767000000000().up(db.createQueryRunner());

    expect(await padded()).toBe(0);
    await expect(db.query("SELECT id FROM products WHERE org_id = 'orgB'")).resolves.toEqual([{ id: 'p1' }]);
    await expect(db.query("SELECT id FROM interviews WHERE product_id = 'p1'")).resolves.toEqual([{ id: 'i1' }]);
    await expect(
      db.query("INSERT INTO interviews (id, product_id, name, interviewer, created_at, updated_at) VALUES ('i2', 'no-such-product', 'x', 'default', ?, ?)", [now, now]),
    ).rejects.toThrow(/foreign key/i);
    if (ENGINE === 'mysql') {
      await expect(db.query("SELECT TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME = 'utf8mb4_bin'")).resolves.toEqual([]);
      await new ExactIdentifiers1767000000000().down(db.createQueryRunner());
      expect(await padded()).toBe(1);
      await expect(db.query("SELECT id FROM interviews WHERE product_id = 'p1'")).resolves.toEqual([{ id: 'i1' }]);
    }
    await db.destroy();
  });

  it('AnswerDigests: every interviewee turn already stored gets its digest, keyed by invite and turn; erased and unanswered invites none', async () => {
    const db = await migratedUpTo(AnswerDigests1767600000000);
    const now = sqlDate(new Date('2026-11-20T10:05:00.000Z'));
    await db.query("INSERT INTO products (id, name, org_id, created_at, updated_at) VALUES ('p1', 'Acme', 'org', ?, ?)", [now, now]);
    await db.query("INSERT INTO interviews (id, product_id, name, interviewer, created_at, updated_at) VALUES ('i1', 'p1', 'Study', 'default', ?, ?)", [now, now]);
    const insert = (linkID: string, conversation: { role: string; content: string }[]) =>
      db.query(
        'INSERT INTO invites (link_id, interview_id, product_id, org_id, status, created_at, updated_at, expires_on, conversation, turn_meta, answer_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [linkID, 'i1', 'p1', 'org', 'started', now, now, now, JSON.stringify(conversation), '[]', conversation.filter((turn) => turn.role === 'interviewee').length],
      );
    const answered = [
      { role: 'interviewer', content: 'Q0?' },
      { role: 'interviewee', content: 'Ünïcode, "quoted" and\nlong enough.' },
      { role: 'interviewer', content: 'Q1?' },
      { role: 'interviewee', content: 'A1' },
    ];
    await insert('answered', answered);
    await insert('erased', []);
    // More invites than one page of the migration's reads (500).
    for (let i = 0; i < 501; i++) await insert(`bulk-${String(i).padStart(3, '0')}`, [{ role: 'interviewee', content: `answer ${i}` }]);

    await new AnswerDigests1767600000000().up(db.createQueryRunner());
    const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const rows = (await db.query('SELECT link_id AS linkID, turn_index AS turnIndex, interview_id AS interviewID, digest FROM invite_answer_digests ORDER BY link_id, turn_index')) as {
      linkID: string;
      turnIndex: number | string;
      interviewID: string;
      digest: string;
    }[];
    const read = rows.map((r) => ({ ...r, turnIndex: Number(r.turnIndex) }));
    expect(read.filter((r) => !r.linkID.startsWith('bulk-'))).toEqual([
      { linkID: 'answered', turnIndex: 1, interviewID: 'i1', digest: sha(answered[1].content) },
      { linkID: 'answered', turnIndex: 3, interviewID: 'i1', digest: sha('A1') },
    ]);
    expect(read.filter((r) => r.linkID.startsWith('bulk-'))).toHaveLength(501);
    expect(read.find((r) => r.linkID === 'bulk-500')).toEqual({ linkID: 'bulk-500', turnIndex: 0, interviewID: 'i1', digest: sha('answer 500') });
    await expect(db.query("DELETE FROM invites WHERE link_id = 'answered'")).rejects.toThrow(/foreign key/i);

    await new AnswerDigests1767600000000().down(db.createQueryRunner());
    expect(Number((await db.query("SELECT COUNT(*) AS n FROM invites WHERE link_id = 'answered'"))[0].n)).toBe(1);
    await expect(db.query('SELECT COUNT(*) FROM invite_answer_digests')).rejects.toThrow(/invite_answer_digests/);
    await db.destroy();
  });

  it('EmailDigests: every invite started with an address gets the digest of its normal form; erased, unstarted and address-less invites none', async () => {
    const db = await migratedUpTo(EmailDigests1767700000000);
    const now = sqlDate(new Date('2026-11-20T10:05:00.000Z'));
    await db.query("INSERT INTO products (id, name, org_id, created_at, updated_at) VALUES ('p1', 'Acme', 'org', ?, ?)", [now, now]);
    for (const id of ['i1', 'i2']) await db.query("INSERT INTO interviews (id, product_id, name, interviewer, created_at, updated_at) VALUES (?, 'p1', 'Study', 'default', ?, ?)", [id, now, now]);
    const insert = (linkID: string, interviewID: string, email: string | null, state: { started?: boolean; erased?: boolean; userInfo?: boolean } = {}) => {
      const { started = true, erased = false, userInfo = true } = state;
      return db.query(
        'INSERT INTO invites (link_id, interview_id, product_id, org_id, status, created_at, updated_at, expires_on, conversation, turn_meta, answer_count, user_info, started_on, erased_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [linkID, interviewID, 'p1', 'org', started ? 'started' : 'pending', now, now, now, '[]', '[]', 0, userInfo ? JSON.stringify({ email, name: 'Ada', occupation: null }) : null, started ? now : null, erased ? now : null],
      );
    };
    await insert('ada', 'i2', ' Ada.Lovelace@Example.COM ');
    await insert('erased', 'i1', null, { erased: true, userInfo: false });
    await insert('unstarted', 'i1', 'pending@example.com', { started: false });
    await insert('no-address', 'i1', null);
    await insert('blank', 'i1', '   ');
    // More invites than one page of the migration's reads (500).
    for (let i = 0; i < 501; i++) await insert(`bulk-${String(i).padStart(3, '0')}`, 'i1', `person${i}@example.com`);

    await new EmailDigests1767700000000().up(db.createQueryRunner());
    const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const rows = (await db.query('SELECT link_id AS linkID, interview_id AS interviewID, digest FROM invite_email_digests ORDER BY link_id')) as { linkID: string; interviewID: string; digest: string }[];
    expect(rows.filter((r) => !r.linkID.startsWith('bulk-'))).toEqual([{ linkID: 'ada', interviewID: 'i2', digest: sha('ada.lovelace@example.com') }]);
    expect(rows.filter((r) => r.linkID.startsWith('bulk-'))).toHaveLength(501);
    expect(rows.find((r) => r.linkID === 'bulk-500')).toEqual({ linkID: 'bulk-500', interviewID: 'i1', digest: sha('person500@example.com') });
    await expect(db.query("DELETE FROM invites WHERE link_id = 'ada'")).rejects.toThrow(/foreign key/i);

    await new EmailDigests1767700000000().down(db.createQueryRunner());
    expect(Number((await db.query("SELECT COUNT(*) AS n FROM invites WHERE link_id = 'ada'"))[0].n)).toBe(1);
    await expect(db.query('SELECT COUNT(*) FROM invite_email_digests')).rejects.toThrow(/invite_email_digests/);
    await db.destroy();
  });
});
