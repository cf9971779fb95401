import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import * as mysql2 from 'mysql2';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { ApiToken } from '../auth/api-token.entity';
import { Codebook } from '../codebooks/codebook.entity';
import { Recruitment } from '../recruitment/recruitment.entity';
import { IdempotencyRecord } from '../idempotency/idempotency-record.entity';
import { Interview } from '../interviews/interview.entity';
import { Invite } from '../invites/invite.entity';
import { InviteAudio } from '../invites/invite-audio.entity';
import { Erasure } from '../participants/erasure.entity';
import { Product } from '../products/product.entity';
import { Profile, ProfileProduct } from '../profiles/profile.entity';
import { ReportCode } from '../reports/report-code.entity';
import { Report, ReportShare } from '../reports/report.entity';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../webhooks/webhook.entity';
import { migrations } from './migrations';
import { mysqlWithStatementTimeout } from './statement-timeout';

export const entities = [ApiToken, Product, Interview, Invite, Profile, ProfileProduct, IdempotencyRecord, WebhookEndpoint, WebhookDelivery, WebhookAttempt, Report, ReportShare, Erasure, ReportCode, Codebook, InviteAudio, Recruitment];

/**
 * The one place DataSource options are built: the Nest app, ormconfig.ts (TypeORM CLI),
 * the token CLI, the seed command and the tests all call this.
 */
export function buildDataSourceOptions(config: Pick<AppConfig, 'database' | 'migrationsRun'>): DataSourceOptions {
  const common = {
    entities,
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
      // mysql2 with every wait bounded by DB_STATEMENT_TIMEOUT_MS (see statement-timeout.ts).
      driver: mysqlWithStatementTimeout(mysql2, db.statementTimeoutMs),
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
    // How long a write waits for another process's lock (better-sqlite3 cannot interrupt a statement).
    timeout: Math.min(5000, db.statementTimeoutMs),
  };
}
