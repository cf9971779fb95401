import { isAbsolute, resolve } from 'node:path';
import { AppConfig, loadConfig } from './app-config';
import { ConfigError } from './config-error';

describe(loadConfig.name, () => {
  describe('defaults', () => {
    let sut: AppConfig;

    beforeEach(() => {
      sut = loadConfig({});
    });

    it('returns an AppConfig', () => {
      expect(sut).toBeInstanceOf(AppConfig);
    });

    it('listens on port 3000', () => {
      expect(sut.port).toBe(3000);
    });

    it('uses the embedded database at an absolute path ending in data/irs.sqlite', () => {
      expect(sut.database.kind).toBe('sqlite');
      const { path } = sut.database as { path: string };
      expect(isAbsolute(path)).toBe(true);
      expect(path.endsWith('data/irs.sqlite')).toBe(true);
    });

    it('runs migrations at start-up', () => {
      expect(sut.migrationsRun).toBe(true);
    });

    it('has the documented limits and names', () => {
      expect(sut).toMatchObject({
        tokenCacheTtlMs: 30000,
        logLevel: 'info',
        logFormat: 'auto',
        bodyLimitBytes: 1024 * 1024,
        corsOrigins: [],
        rateLimit: { limit: 600, windowMs: 60_000 },
      });
    });

    it('treats empty and blank values as unset', () => {
      expect(loadConfig({ PORT: '', DATABASE_URL: '  ', MIGRATIONS_RUN: '', LOG_LEVEL: '' })).toMatchObject({
        port: 3000,
        database: { kind: 'sqlite', path: resolve('data/irs.sqlite') },
        migrationsRun: true,
        logLevel: 'info',
      });
    });
  });

  describe('DATABASE_URL', () => {
    it('parses a mysql URL into a MySQL configuration with pool defaults', () => {
      expect(loadConfig({ DATABASE_URL: 'mysql://irs:secret@db.internal:3306/irs' }).database).toEqual({
        kind: 'mysql',
        flavor: 'mysql',
        url: 'mysql://irs:secret@db.internal:3306/irs',
        poolSize: 10,
        connectTimeoutMs: 3000,
        queueLimit: 500,
        statementTimeoutMs: 10_000,
      });
    });

    it('accepts mariadb:// as the MySQL kind with the MariaDB flavor', () => {
      expect(loadConfig({ DATABASE_URL: 'mariadb://irs:secret@db/irs' }).database).toMatchObject({
        kind: 'mysql',
        flavor: 'mariadb',
        url: 'mysql://irs:secret@db/irs',
      });
    });

    it('reads pool settings for MySQL', () => {
      expect(loadConfig({ DATABASE_URL: 'mysql://u:p@h/d', DB_POOL_SIZE: '20', DB_CONNECT_TIMEOUT_MS: '500', DB_QUEUE_LIMIT: '50' }).database).toMatchObject({
        poolSize: 20,
        connectTimeoutMs: 500,
        queueLimit: 50,
      });
    });

    it('accepts sqlite:<absolute file>', () => {
      expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.sqlite' }).database).toEqual({ kind: 'sqlite', path: '/tmp/x.sqlite', statementTimeoutMs: 10_000 });
    });

    it('accepts sqlite::memory:', () => {
      expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).database).toEqual({ kind: 'sqlite', path: ':memory:', statementTimeoutMs: 10_000 });
    });

    it('resolves a relative sqlite path against the working directory', () => {
      expect(loadConfig({ DATABASE_URL: 'sqlite:tmp/y.sqlite' }).database).toEqual({ kind: 'sqlite', path: resolve('tmp/y.sqlite'), statementTimeoutMs: 10_000 });
    });
  });

  describe('operating limits', () => {
    it('bounds waits on the database by DB_STATEMENT_TIMEOUT_MS (10 s by default), on both engines', () => {
      expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '2500' }).database.statementTimeoutMs).toBe(2500);
      expect(loadConfig({ DATABASE_URL: 'mysql://u:p@h/d', DB_STATEMENT_TIMEOUT_MS: '2500' }).database.statementTimeoutMs).toBe(2500);
    });

    it('drains for SHUTDOWN_DRAIN_MS (none by default)', () => {
      expect(loadConfig({}).shutdownDrainMs).toBe(0);
      expect(loadConfig({ SHUTDOWN_DRAIN_MS: '5000' }).shutdownDrainMs).toBe(5000);
    });

    it('shares rate-limit counters through REDIS_URL when set, under a key prefix', () => {
      expect(loadConfig({}).redis).toBeNull();
      expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/3' }).redis).toEqual({ url: 'redis://127.0.0.1:6379/3', keyPrefix: 'irs:' });
      expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache:6380', REDIS_KEY_PREFIX: 'staging:' }).redis).toEqual({ url: 'rediss://:pw@cache:6380', keyPrefix: 'staging:' });
    });

    it('trusts no proxy by default, and the hops, addresses, subnets or named ranges TRUST_PROXY gives', () => {
      expect(loadConfig({}).trustProxy).toBe(false);
      expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
      expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
      expect(loadConfig({ TRUST_PROXY: 'Loopback' }).trustProxy).toEqual(['loopback']);
      expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 172.16.0.1, fd00::/8, uniquelocal' }).trustProxy).toEqual(['10.0.0.0/8', '172.16.0.1', 'fd00::/8', 'uniquelocal']);
    });

    it('never repeats a REDIS_URL, which may hold a password, in its error', () => {
      expect(() => loadConfig({ REDIS_URL: 'redis://:hunter2@[bad' })).toThrow(/^REDIS_URL must be/);
      expect(() => loadConfig({ REDIS_URL: 'redis://:hunter2@[bad' })).not.toThrow(/hunter2/);
    });
  });

  it('reads TOKEN_CACHE_TTL_SECONDS in seconds, 0 switching the cache off', () => {
    expect(loadConfig({ TOKEN_CACHE_TTL_SECONDS: '5' }).tokenCacheTtlMs).toBe(5000);
    expect(loadConfig({ TOKEN_CACHE_TTL_SECONDS: '0' }).tokenCacheTtlMs).toBe(0);
  });

  it('reads booleans in their usual spellings', () => {
    expect(loadConfig({ MIGRATIONS_RUN: 'false' }).migrationsRun).toBe(false);
    expect(loadConfig({ MIGRATIONS_RUN: 'OFF' }).migrationsRun).toBe(false);
    expect(loadConfig({ MIGRATIONS_RUN: '1' }).migrationsRun).toBe(true);
  });

  it('reads a list of CORS origins', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
  });

  it('reads a feature\'s settings from the same environment once, on first use', () => {
    const sut = loadConfig({ SOME_FEATURE: '7' });
    const reader = jest.fn((env: Record<string, string | undefined>) => ({ value: Number(env.SOME_FEATURE) }));
    expect(sut.feature(reader)).toEqual({ value: 7 });
    expect(sut.feature(reader)).toBe(sut.feature(reader));
    expect(reader).toHaveBeenCalledTimes(1);
  });

  describe('refuses bad values with a ConfigError naming the variable', () => {
    it.each<[Record<string, string>, string]>([
      [{ PORT: 'abc' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ PORT: '-1' }, 'PORT'],
      [{ PORT: '3000.5' }, 'PORT'],
      [{ DATABASE_URL: 'postgres://x' }, 'DATABASE_URL'],
      [{ DATABASE_URL: 'mysql://host' }, 'DATABASE_URL'],
      [{ DATABASE_URL: 'mysql://host/' }, 'DATABASE_URL'],
      [{ MIGRATIONS_RUN: 'maybe' }, 'MIGRATIONS_RUN'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
      [{ DB_STATEMENT_TIMEOUT_MS: '50' }, 'DB_STATEMENT_TIMEOUT_MS'],
      [{ SHUTDOWN_DRAIN_MS: '-1' }, 'SHUTDOWN_DRAIN_MS'],
      [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
      [{ REDIS_URL: 'redis://cache', REDIS_KEY_PREFIX: 'has space' }, 'REDIS_KEY_PREFIX'],
      [{ CORS_ORIGINS: 'notaurl' }, 'CORS_ORIGINS'],
      [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
      [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
      [{ TRUST_PROXY: 'proxy.example.com' }, 'TRUST_PROXY'],
      [{ TRUST_PROXY: '101' }, 'TRUST_PROXY'],
      [{ CORS_ORIGINS: 'https://app.example.com/path' }, 'CORS_ORIGINS'],
    ])('%p', (env, variable) => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(variable);
    });
  });
});
