import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source-options';

/**
 * Picks the database for the whole e2e run and migrates it once:
 * DATABASE_URL when set (MySQL/MariaDB), else a fresh embedded SQLite file in a temp directory.
 */
export default async function globalSetup(): Promise<void> {
  // Shared by this run's suites (the server build of test/helpers/built-server.ts); removed by the teardown.
  process.env.IRS_E2E_RUN_DIR = mkdtempSync(join(tmpdir(), 'irs-e2e-run-'));
  if (!process.env.DATABASE_URL) {
    const dir = mkdtempSync(join(tmpdir(), 'irs-e2e-'));
    process.env.IRS_E2E_TMPDIR = dir;
    process.env.DATABASE_URL = `sqlite:${join(dir, 'e2e.sqlite')}`;
  }
  process.env.LOG_LEVEL ??= 'silent';
  // Generous limits by default; the rate-limit spec boots its own app with a small one.
  process.env.RATE_LIMIT_MAX ??= '1000000';
  const dataSource = new DataSource(buildDataSourceOptions({ ...loadConfig(process.env), migrationsRun: true }));
  await dataSource.initialize();
  await dataSource.destroy();
  const engine = process.env.DATABASE_URL.startsWith('sqlite') ? 'embedded SQLite' : 'MySQL/MariaDB';
  process.stdout.write(`\ne2e database: ${engine}\n`);
}
