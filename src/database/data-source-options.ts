import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { migrations } from './migrations';
import { DatabaseLogger } from './database-logger';
import { DiscardTimedOutConnections, EmbeddedStatementQueue } from './driver-guards';

/**
 * The one place DataSource options are built: the Nest app, ormconfig.ts (TypeORM CLI),
 * the token CLI, the seed command and the tests all call this. No entities: the database knows no
 * feature. Each feature module registers its own (TypeOrmModule.forFeature, collected by
 * autoLoadEntities in DatabaseModule); the TypeORM CLI finds them by file name (ormconfig.ts).
 */
export function buildDataSourceOptions(config: Pick<AppConfig, 'database' | 'migrationsRun'>): DataSourceOptions {
  const common = {
    migrations,
    migrationsRun: config.migrationsRun,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    // Not 'error': TypeORM would print failed SQL with its parameters (linkIDs among them) through
    // console.log, past LOG_LEVEL. Failures reach the exception filter, which logs them without parameters.
    // Not 'migration' either: the app logs what its migrations did itself (DatabaseModule).
    logging: ['warn' as const],
  };
  const db = config.database;
  if (db.kind === 'mysql') {
    return {
      ...common,
      type: db.flavor,
      // Every query bounded by DB_STATEMENT_TIMEOUT_MS: mysql2's per-query timeout, which TypeORM passes
      // with enableQueryTimeout; a connection whose query ran out is destroyed (driver-guards.ts). A wait
      // for a pooled connection ends when a holder's query answers or runs out, or a new connection
      // connects or runs out of DB_CONNECT_TIMEOUT_MS; the queue is bounded (queueLimit).
      enableQueryTimeout: true,
      maxQueryExecutionTime: db.statementTimeoutMs,
      subscribers: [DiscardTimedOutConnections],
      // TypeORM logs a query slower than maxQueryExecutionTime with its parameters: ours logs its time only.
      logger: new DatabaseLogger(),
      url: db.url,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      poolSize: db.poolSize,
      connectTimeout: db.connectTimeoutMs,
      // mysql2's "long stack traces" capture a stack on every query (see bench/README.md) to name
      // the caller of a failed one; TypeORM's QueryFailedError carries the caller's async stack anyway.
      trace: false,
      extra: {
        // A bounded queue and a bounded wait: while the database is gone, requests fail fast (503)
        // instead of piling up.
        queueLimit: db.queueLimit,
        enableKeepAlive: true,
        maxIdle: db.poolSize,
        idleTimeout: 60_000,
      },
    };
  }
  if (db.path !== ':memory:') mkdirSync(dirname(db.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: db.path,
    enableWAL: true,
    // The one connection's statements and transactions one after another (driver-guards.ts).
    subscribers: [EmbeddedStatementQueue],
    // How long a write waits for another process's lock (better-sqlite3 cannot interrupt a statement).
    timeout: Math.min(5000, db.statementTimeoutMs),
  };
}
