import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from './config-error';
import { engineOf } from './engine';
import { Env, readBool, readChoice, readInt } from './env';

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

/** A feature's own settings, read from the same environment (see featureConfig). */
export type FeatureConfigReader<T> = (env: Env, app: AppConfig) => T;

/**
 * Typed, validated configuration: the settings every process shares (port, database, logs, tokens,
 * HTTP limits). Each feature reads its own settings from the same environment through its own reader
 * (room.config.ts, invites.config.ts, webhooks.config.ts, interviewers.config.ts), an @nestjs/config
 * namespace made with featureConfig: this folder knows no feature. Built once per process (or per app
 * in the tests) by loadConfig(); nothing else reads the environment.
 */
export class AppConfig {
  readonly port: number;
  readonly database: DatabaseConfig;
  readonly migrationsRun: boolean;
  readonly logLevel: LogLevelName;
  readonly logFormat: LogFormat;
  readonly tokenCacheTtlMs: number;
  readonly bodyLimitBytes: number;
  readonly corsOrigins: string[];
  /** Requests per token on /v1 (per address without one), per window; the window is every rate limit's. */
  readonly rateLimit: { limit: number; windowMs: number };
  readonly redis: RedisConfig | null;
  /**
   * Express's `trust proxy` (TRUST_PROXY): which proxies in front may name the client in X-Forwarded-For.
   * false trusts none (req.ip is the peer's address); a hop count, or the addresses/subnets of the proxies.
   */
  readonly trustProxy: TrustProxy;
  /** After SIGTERM, /health answers 503 and requests are still served this long before the listener closes. */
  readonly shutdownDrainMs: number;
  /**
   * After the drain, the graceful close gets this long (SHUTDOWN_GRACE_MS); whatever it still waits for
   * then (a pool, a worker thread, a log a reader stopped reading) is given up and the process exits 1.
   */
  readonly shutdownGraceMs: number;
  /** The environment these settings were read from, for the features' own readers. */
  readonly env: Env;
  private readonly features = new Map<FeatureConfigReader<unknown>, unknown>();

  constructor(values: Omit<AppConfig, 'feature' | 'features'>) {
    Object.assign(this, values);
  }

  /** A feature's settings, read (and validated) once from this configuration's environment. */
  feature<T>(reader: FeatureConfigReader<T>): T {
    if (!this.features.has(reader)) this.features.set(reader, reader(this.env, this));
    return this.features.get(reader) as T;
  }
}

/** What Express's `trust proxy` accepts from TRUST_PROXY: nothing, a hop count, or proxy addresses and subnets. */
export type TrustProxy = false | number | string[];

/** The names proxy-addr (Express) gives to address ranges. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: unset trusts no proxy; a number trusts that many hops in front of the service; otherwise a
 * comma-separated list of addresses, subnets (10.0.0.0/8) and proxy-addr's names (loopback, linklocal,
 * uniquelocal). `true` (trust any hop, so any client could name itself) is refused: name the proxies.
 */
function readTrustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || raw.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(raw)) return readInt(env, 'TRUST_PROXY', 0, 0, 100) || false;
  const items = raw
    .split(',')
    .map((i) => i.trim())
    .filter(Boolean);
  for (const item of items) {
    if (PROXY_RANGES.includes(item.toLowerCase())) continue;
    const [address, prefix, extra] = item.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(
        `TRUST_PROXY must be a number of proxy hops, or a comma-separated list of proxy addresses, subnets (10.0.0.0/8) or loopback, linklocal, uniquelocal (got "${item}")`,
      );
    }
  }
  return items.map((i) => (PROXY_RANGES.includes(i.toLowerCase()) ? i.toLowerCase() : i));
}

export const DEFAULT_SQLITE_PATH = 'data/irs.sqlite';

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

function readCorsOrigins(env: Env): string[] {
  const origins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS must be a comma-separated list of origins like https://app.example.com (got "${origin}")`);
    }
  }
  return origins;
}

export function loadConfig(env: Env = process.env): AppConfig {
  return new AppConfig({
    port: readInt(env, 'PORT', 3000, 0, 65535),
    database: readDatabase(env),
    migrationsRun: readBool(env, 'MIGRATIONS_RUN', true),
    logLevel: readChoice(env, 'LOG_LEVEL', 'info', ['silent', 'error', 'warn', 'info', 'debug']),
    logFormat: readChoice(env, 'LOG_FORMAT', 'auto', ['auto', 'json', 'pretty']),
    tokenCacheTtlMs: readInt(env, 'TOKEN_CACHE_TTL_SECONDS', 30, 0, 3600) * 1000,
    bodyLimitBytes: readInt(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    corsOrigins: readCorsOrigins(env),
    rateLimit: {
      limit: readInt(env, 'RATE_LIMIT_MAX', 600, 1, 1_000_000),
      windowMs: readInt(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86400) * 1000,
    },
    redis: readRedis(env),
    trustProxy: readTrustProxy(env),
    shutdownDrainMs: readInt(env, 'SHUTDOWN_DRAIN_MS', 0, 0, 600_000),
    shutdownGraceMs: readInt(env, 'SHUTDOWN_GRACE_MS', 10_000, 100, 600_000),
    env: { ...env },
  });
}
