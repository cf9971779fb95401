import { DataSource } from 'typeorm';
import { ENGINE } from '../src/config/engine';
import { TestApp, startApp } from './helpers/app';
import { allTables } from './helpers/table-text';

/** Checks that only make sense on one engine say so in their name, and are skipped visibly elsewhere. */
const onMysql = ENGINE === 'mysql' ? it : it.skip;
const onSqlite = ENGINE === 'sqlite' ? it : it.skip;

describe(`database schema (${ENGINE})`, () => {
  let t: TestApp;
  let db: DataSource;

  // The app's own DataSource: its entities are the ones the feature modules register.
  beforeAll(async () => {
    t = await startApp();
    db = t.db;
  });

  afterAll(() => t.close());

  it('has every migration applied', async () => {
    await expect(db.showMigrations()).resolves.toBe(false);
  });

  it('matches the entities exactly (what migration:generate --check verifies)', async () => {
    const pending = await db.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('has an entity registered by some module for every table the migrations create', async () => {
    const tables = (await allTables(db)).filter((name) => name !== 'migrations');
    expect(tables.length).toBeGreaterThan(10);
    expect(tables.filter((name) => !db.entityMetadatas.some((m) => m.tableName === name))).toEqual([]);
  });

  it('has an index behind every list filter and the webhook relay\'s claim', async () => {
    const expected: Record<string, string[]> = {
      products: ['org_id', 'user_id'],
      interviews: ['product_id'],
      invites: ['interview_id', 'product_id'],
      profile_products: ['product_id'],
      webhooks: ['org_id', 'user_id'],
      // An endpoint's deliveries in order, and the relay's claim of due ones.
      webhook_deliveries: ['webhook_id', 'status'],
      webhook_attempts: ['delivery_id', 'webhook_id'],
    };
    const runner = db.createQueryRunner();
    try {
      for (const [table, columns] of Object.entries(expected)) {
        const leading = ((await runner.getTable(table))?.indices ?? []).map((i) => i.columnNames[0]);
        expect({ table, leading: columns.filter((c) => leading.includes(c)) }).toEqual({ table, leading: columns });
      }
    } finally {
      await runner.release();
    }
  });

  it('enforces foreign keys: an interview of an unknown product is refused', async () => {
    const now = '2026-01-01 00:00:00.000';
    await expect(
      db.query("INSERT INTO interviews (id, product_id, name, interviewer, created_at, updated_at) VALUES (?, ?, 'x', 'default', ?, ?)", [
        'schema-fk-interview',
        'no-such-product',
        now,
        now,
      ]),
    ).rejects.toThrow(/foreign key/i);
    const [{ n }] = await db.query("SELECT COUNT(*) AS n FROM interviews WHERE id = 'schema-fk-interview'");
    expect(Number(n)).toBe(0);
  });

  it('compares identifiers and owners exactly: acme and ACME are different organizations', async () => {
    const now = '2026-01-01 00:00:00.000';
    const org = `schema-case-${Date.now()}`;
    await db.query('INSERT INTO products (id, name, org_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [`${org}-p`, 'p', org, now, now]);
    await expect(db.query('SELECT id FROM products WHERE org_id = ?', [org.toUpperCase()])).resolves.toEqual([]);
    await expect(db.query('SELECT id FROM products WHERE id = ?', [`${org}-P`])).resolves.toEqual([]);
    await expect(db.query('SELECT id FROM products WHERE org_id = ?', [org])).resolves.toEqual([{ id: `${org}-p` }]);
  });

  it('compares identifiers without padding: "orgB " is not orgB, on every engine', async () => {
    const now = '2026-01-01 00:00:00.000';
    const org = `schema-pad-${Date.now()}`;
    await db.query('INSERT INTO products (id, name, org_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [`${org}-p`, 'p', org, now, now]);
    await expect(db.query('SELECT id FROM products WHERE org_id = ?', [`${org} `])).resolves.toEqual([]);
    await expect(db.query('SELECT id FROM products WHERE id = ?', [`${org}-p `])).resolves.toEqual([]);
    await expect(db.query('SELECT id FROM products WHERE org_id = ?', [org])).resolves.toEqual([{ id: `${org}-p` }]);
  });

  onMysql('gives no column a collation that pads trailing spaces where it is binary (identifiers use the NO PAD one)', async () => {
    await expect(db.query("SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME = 'utf8mb4_bin'")).resolves.toEqual([]);
    const exact: { c: string }[] = await db.query("SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'products' AND COLLATION_NAME IN ('utf8mb4_nopad_bin', 'utf8mb4_0900_bin') ORDER BY COLUMN_NAME");
    expect(exact.map((r) => r.c)).toEqual(['id', 'org_id', 'user_id']);
  });

  it('keeps 4-byte characters and a transcript larger than 64 KB intact', async () => {
    const text = `🧪 ${'ü'.repeat(40_000)} 😀`;
    const id = `schema-long-${Date.now()}`;
    const now = '2026-01-01 00:00:00.000';
    await db.query('INSERT INTO products (id, name, org_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, 'p', id, now, now]);
    await db.query("INSERT INTO interviews (id, product_id, name, guidelines, interviewer, created_at, updated_at) VALUES (?, ?, 'x', ?, 'default', ?, ?)", [
      id,
      id,
      text,
      now,
      now,
    ]);
    await expect(db.query('SELECT guidelines FROM interviews WHERE id = ?', [id])).resolves.toEqual([{ guidelines: text }]);
  });

  onMysql('stores text as utf8mb4 (MySQL/MariaDB only)', async () => {
    const rows: { TABLE_NAME: string; TABLE_COLLATION: string }[] = await db.query(
      'SELECT TABLE_NAME, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
    );
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((r) => !r.TABLE_COLLATION.startsWith('utf8mb4'))).toEqual([]);
  });

  onSqlite('runs in WAL mode, so reads are not blocked by a write (embedded database only)', async () => {
    await expect(db.query('PRAGMA journal_mode')).resolves.toEqual([{ journal_mode: 'wal' }]);
  });
});
