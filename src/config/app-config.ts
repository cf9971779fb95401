import { isAbsolute, resolve } from 'node:path';
import { INVITE_LIMITS } from '../invites/invite.limits';
import { RETRY_SCHEDULE_SECONDS } from '../webhooks/webhooks.limits';
import { ConfigError } from './config-error';
import { engineOf } from './engine';
import { InterviewerAgentConfig, readDefaultInterviewer, readInterviewerAgents } from './interviewer-agents';

export type LogLevelName = 'silent' | 'error' | 'warn' | 'info' | 'debug';
/** auto: readable lines on a terminal, JSON lines otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

export type DatabaseConfig = (
  | { kind: 'sqlite'; path: string }
  | {
      kind: 'mysql';
      /** mysql:// selects TypeORM's MySQL dialect, mariadb:// its MariaDB one (they read schemas differently). */
      flavor: 'mysql' | 'mariadb';
      url: string;
      poolSize: number;
      connectTimeoutMs: number;
      queueLimit: number;
    }
) & {
  /**
   * No request waits on the database longer (DB_STATEMENT_TIMEOUT_MS): waiting for a pooled connection
   * and for an answer share it. On the embedded database it bounds waits for a lock.
   */
  statementTimeoutMs: number;
};

/** Where rate-limit counters are shared by every instance (REDIS_URL); null: each process counts its own. */
export interface RedisConfig {
  url: string;
  /** Keys are prefixed so that one Redis can serve several deployments (and tests). */
  keyPrefix: string;
}

export interface RoomConfig {
  /** Shown above the start form and recorded in the transcript when the interviewee agrees. */
  consentText: string;
  /** An invite expires this long after it was created, unless createInvites says otherwise. */
  inviteTtlDays: number;
  /** How often each instance looks for invites past expires_on. */
  expirySweepMs: number;
  /** Requests per RATE_LIMIT_WINDOW_SECONDS: per client address and per link. */
  rateLimit: { perAddress: number; perLink: number };
}

export interface WebhookConfig {
  /** Development and tests only: deliver to loopback, private and link-local addresses, and over http. */
  allowLocal: boolean;
  /** The waits between attempts, in ms: the contract's schedule unless WEBHOOK_RETRY_SCHEDULE shortens it (tests). */
  retryScheduleMs: number[];
}

export const DEFAULT_CONSENT_TEXT =
  'This interview is conducted by an automated interviewer. Your answers are recorded and shared with the research team that sent you this link.';

/**
 * Typed, validated configuration: the only reader of the environment. Built once per process (or per
 * app in the tests) by loadConfig(); the Nest app injects it by class, the CLIs and ormconfig.ts
 * call loadConfig() themselves.
 */
export class AppConfig {
  readonly port: number;
  readonly database: DatabaseConfig;
  readonly migrationsRun: boolean;
  readonly inviteBaseUrl: string;
  readonly defaultInterviewer: string;
  /** The configured interviewer agents by name (INTERVIEWER_AGENTS); the built-in `default` is not among them. */
  readonly interviewers: ReadonlyMap<string, InterviewerAgentConfig>;
  readonly maxInvitesPerRequest: number;
  readonly logLevel: LogLevelName;
  readonly logFormat: LogFormat;
  readonly tokenCacheTtlMs: number;
  readonly bodyLimitBytes: number;
  readonly corsOrigins: string[];
  readonly rateLimit: { limit: number; windowMs: number };
  readonly redis: RedisConfig | null;
  /** After SIGTERM, /health answers 503 and requests are still served this long before the listener closes. */
  readonly shutdownDrainMs: number;
  /** The interview room (/i/{linkID}) and the invites' expiry. */
  readonly room: RoomConfig;
  readonly webhooks: WebhookConfig;

  constructor(values: Omit<AppConfig, never>) {
    Object.assign(this, values);
  }
}

export const DEFAULT_SQLITE_PATH = 'data/irs.sqlite';

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${env[name]}")`);
}

function readRedis(env: Env): RedisConfig | null {
  const raw = env.REDIS_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL must be a redis://[user:password@]host:port[/db] URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL (got "${url.protocol}")`);
  const keyPrefix = env.REDIS_KEY_PREFIX?.trim() || 'irs:';
  if (!/^[\x21-\x7e]{1,64}$/.test(keyPrefix)) throw new ConfigError('REDIS_KEY_PREFIX must be 1 to 64 printable characters without spaces');
  return { url: raw, keyPrefix };
}

function readText(env: Env, name: string, fallback: string, max: number): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (raw.length > max || raw.includes('\0') || !raw.isWellFormed()) throw new ConfigError(`${name} must be text of at most ${max} characters`);
  return raw;
}

function readHttpUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

function readDatabase(env: Env): DatabaseConfig {
  const statementTimeoutMs = readInt(env, 'DB_STATEMENT_TIMEOUT_MS', 10_000, 100, 600_000);
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return { kind: 'sqlite', path: resolve(DEFAULT_SQLITE_PATH), statementTimeoutMs };
  if (engineOf(raw) === 'mysql') {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid mysql://user:password@host:port/database URL');
    }
    if (!url.hostname || url.pathname.replace(/^\//, '') === '') {
      throw new ConfigError('DATABASE_URL must name a host and a database: mysql://user:password@host:port/database');
    }
    return {
      kind: 'mysql',
      flavor: /^mariadb:/i.test(raw) ? 'mariadb' : 'mysql',
      url: raw.replace(/^mariadb:/i, 'mysql:'),
      poolSize: readInt(env, 'DB_POOL_SIZE', 10, 1, 1000),
      connectTimeoutMs: readInt(env, 'DB_CONNECT_TIMEOUT_MS', 3000, 100, 60000),
      queueLimit: readInt(env, 'DB_QUEUE_LIMIT', 500, 1, 100000),
      statementTimeoutMs,
    };
  }
  const sqlite = /^sqlite:(.+)$/i.exec(raw);
  if (sqlite) {
    const path = sqlite[1].replace(/^\/\//, '');
    return { kind: 'sqlite', path: path === ':memory:' || isAbsolute(path) ? path : resolve(path), statementTimeoutMs };
  }
  throw new ConfigError('DATABASE_URL must be unset (embedded database), sqlite:<file>, mysql://user:password@host:port/database or mariadb://...');
}

/**
 * WEBHOOK_RETRY_SCHEDULE, for tests: comma-separated waits in seconds (decimals allowed) that replace
 * the contract's 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. Unset: that schedule.
 */
function readRetrySchedule(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_SCHEDULE?.trim();
  if (!raw) return RETRY_SCHEDULE_SECONDS.map((s) => s * 1000);
  const steps = raw.split(',').map((s) => s.trim());
  if (steps.length > 20 || steps.some((s) => !/^\d{1,6}(\.\d{1,3})?$/.test(s) || Number(s) <= 0 || Number(s) > 86_400)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated waits in seconds, each above 0 and at most 86400 (got "${raw}")`);
  }
  return steps.map((s) => Math.round(Number(s) * 1000));
}

const LOG_LEVELS: LogLevelName[] = ['silent', 'error', 'warn', 'info', 'debug'];

export function loadConfig(env: Env = process.env): AppConfig {
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevelName;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  }
  const logFormat = (env.LOG_FORMAT?.trim().toLowerCase() || 'auto') as LogFormat;
  if (!['auto', 'json', 'pretty'].includes(logFormat)) {
    throw new ConfigError(`LOG_FORMAT must be json or pretty (got "${env.LOG_FORMAT}")`);
  }
  const interviewers = readInterviewerAgents(env);
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS must be a comma-separated list of origins like https://app.example.com (got "${origin}")`);
    }
  }
  const port = readInt(env, 'PORT', 3000, 0, 65535);
  return new AppConfig({
    port,
    database: readDatabase(env),
    migrationsRun: readBool(env, 'MIGRATIONS_RUN', true),
    // Unset, links open on this very service: a link printed by a local service works there.
    inviteBaseUrl: readHttpUrl(env, 'INVITE_BASE_URL', `http://localhost:${port}/i`),
    defaultInterviewer: readDefaultInterviewer(env, interviewers),
    interviewers,
    maxInvitesPerRequest: readInt(env, 'MAX_INVITES_PER_REQUEST', 1000, 1, INVITE_LIMITS.perRequestCeiling),
    logLevel,
    logFormat,
    tokenCacheTtlMs: readInt(env, 'TOKEN_CACHE_TTL_SECONDS', 30, 0, 3600) * 1000,
    bodyLimitBytes: readInt(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    corsOrigins,
    rateLimit: {
      limit: readInt(env, 'RATE_LIMIT_MAX', 600, 1, 1_000_000),
      windowMs: readInt(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86400) * 1000,
    },
    redis: readRedis(env),
    shutdownDrainMs: readInt(env, 'SHUTDOWN_DRAIN_MS', 0, 0, 600_000),
    room: {
      consentText: readText(env, 'CONSENT_TEXT', DEFAULT_CONSENT_TEXT, 2000),
      inviteTtlDays: readInt(env, 'INVITE_TTL_DAYS', 30, 1, INVITE_LIMITS.expiresInDaysMax),
      expirySweepMs: readInt(env, 'EXPIRY_SWEEP_SECONDS', 60, 1, 60) * 1000,
      rateLimit: {
        perAddress: readInt(env, 'ROOM_RATE_LIMIT_MAX', 120, 1, 1_000_000),
        perLink: readInt(env, 'ROOM_LINK_RATE_LIMIT_MAX', 60, 1, 1_000_000),
      },
    },
    webhooks: {
      allowLocal: readBool(env, 'WEBHOOK_ALLOW_LOCAL', false),
      retryScheduleMs: readRetrySchedule(env),
    },
  });
}
