import { DataSource } from 'typeorm';
import { ApiToken } from '../../src/auth/api-token.entity';
import { TokensService } from '../../src/auth/tokens.service';
import { loadConfig } from '../../src/config/app-config';
import { buildDataSourceOptions } from '../../src/database/data-source-options';

/**
 * A database for a built server (BuiltServer) of the suite's own, migrated, and an admin token the
 * server will accept. The connection knows tokens only: the suites read everything else with SQL.
 */
export async function migratedDatabase(databaseUrl: string, tokenName: string): Promise<{ db: DataSource; token: string }> {
  const db = await new DataSource({ ...buildDataSourceOptions({ ...loadConfig({ DATABASE_URL: databaseUrl }), migrationsRun: true }), entities: [ApiToken] }).initialize();
  const { token } = await new TokensService(db.getRepository(ApiToken), loadConfig({})).create({ isAdmin: true, name: tokenName });
  return { db, token };
}
