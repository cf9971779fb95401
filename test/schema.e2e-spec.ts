import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source-options';

describe('database schema', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = new DataSource(buildDataSourceOptions({ ...loadConfig(process.env), migrationsRun: false }));
    await db.initialize();
  });

  afterAll(() => db.destroy());

  it('has every migration applied', async () => {
    await expect(db.showMigrations()).resolves.toBe(false);
  });

  it('matches the entities exactly (what migration:generate --check verifies)', async () => {
    const pending = await db.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('stores text as utf8mb4 on MySQL', async () => {
    if (db.options.type === 'better-sqlite3') return;
    const rows: { TABLE_NAME: string; TABLE_COLLATION: string }[] = await db.query(
      'SELECT TABLE_NAME, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
    );
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) expect(r.TABLE_COLLATION).toMatch(/^utf8mb4/);
  });

  it('has an index behind every list filter', async () => {
    const expected: Record<string, string[]> = {
      products: ['org_id', 'user_id'],
      interviews: ['product_id'],
      invites: ['interview_id', 'product_id'],
      profile_products: ['product_id'],
    };
    for (const [table, columns] of Object.entries(expected)) {
      const t = await db.createQueryRunner().getTable(table);
      const leading = (t?.indices ?? []).map((i) => i.columnNames[0]);
      for (const c of columns) expect({ table, leading: leading.includes(c) }).toEqual({ table, leading: true });
    }
  });
});
