import type { AddressInfo } from 'node:net';
import * as mysql2 from 'mysql2';
import { DataSource, EventSubscriber } from 'typeorm';
import type { BeforeQueryEvent, EntitySubscriberInterface } from 'typeorm';
import { DiscardTimedOutConnections, EmbeddedStatementQueue, QUERY_TIMEOUT_CODE } from './driver-guards';

/**
 * The library behaviours driver-guards.ts stands on, checked against the libraries themselves (TypeORM,
 * mysql2, better-sqlite3): when one of these fails after an upgrade, the guard it explains is either not
 * needed any more or no longer works, and must be looked at.
 */

interface MysqlServer {
  on(event: 'connection', listener: (conn: any) => void): void;
  listen(port: number, host: string, ready: () => void): void;
  close(done: () => void): void;
  _server: { address(): AddressInfo | string | null };
}

/** A MySQL server (mysql2's own server side) that answers every query with one row, and never answers one with SLEEP in it. */
async function mysqlServer(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  // Typed as taking a handler and listening on a port only; the server itself is an EventEmitter over net.Server.
  const server = (mysql2.createServer as unknown as () => MysqlServer)();
  const sockets: { destroy?: () => void; stream?: { destroy: () => void } }[] = [];
  let connections = 0;
  server.on('connection', (conn: any) => {
    connections++;
    sockets.push(conn);
    conn.serverHandshake({ protocolVersion: 10, serverVersion: '10.11.0-MariaDB', connectionId: connections, statusFlags: 2, characterSet: 33, capabilityFlags: 0xffffff,
      // Accepted (the OK is written inside the callback), then ready for the client's first command.
      authCallback: (_params: unknown, accept: (err: null) => void) => {
        accept(null);
        conn.sequenceId = 0;
      },
    });
    conn.on('query', (sql: string) => {
      if (/SLEEP/i.test(sql)) return;
      // Each answer starts a packet sequence of its own (mysql2's server side leaves that to its user).
      conn.sequenceId = 1;
      conn.writeColumns([
        { catalog: 'def', schema: '', table: '', orgTable: '', name: 'version', orgName: 'version', characterSet: 33, columnLength: 64, columnType: mysql2.Types.VAR_STRING, flags: 0, decimals: 0 },
      ]);
      conn.writeTextRow(['10.11.0-MariaDB']);
      conn.writeEof();
      conn.sequenceId = 0;
    });
    conn.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server._server.address() as AddressInfo).port;
  return {
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.stream?.destroy();
        server.close(() => resolve());
      }),
  };
}

const TIMEOUT_MS = 150;

describe('mysql2 under DB_STATEMENT_TIMEOUT_MS', () => {
  let server: Awaited<ReturnType<typeof mysqlServer>>;
  beforeEach(async () => (server = await mysqlServer()));
  afterEach(() => server.close());

  it('mysql2 alone: a query that ran out leaves its connection busy, so the next query on it never starts (why DiscardTimedOutConnections exists)', async () => {
    const pool = mysql2.createPool({ host: '127.0.0.1', port: server.port, user: 'root', connectionLimit: 1 }).promise();
    try {
      const started = Date.now();
      await expect(pool.query({ sql: 'SELECT SLEEP(60)', timeout: TIMEOUT_MS })).rejects.toMatchObject({ code: QUERY_TIMEOUT_CODE });
      expect(Date.now() - started).toBeLessThan(5000);
      // Back in the pool, the same connection: the next query waits behind the one that ran out, with no timer of its own.
      const next = pool.query({ sql: 'SELECT version() AS version', timeout: TIMEOUT_MS });
      const outcome = await Promise.race([next.then(() => 'answered', () => 'failed'), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1000))]);
      expect(outcome).toBe('still waiting');
      next.catch(() => undefined);
    } finally {
      void pool.pool.end(() => undefined);
      for (const c of (pool.pool as unknown as { _allConnections: { toArray(): { destroy(): void }[] } })._allConnections.toArray()) c.destroy();
    }
  });

  it('TypeORM with enableQueryTimeout: the query fails with the timeout, and with DiscardTimedOutConnections the next query gets a new connection', async () => {
    const db = await new DataSource({
      type: 'mysql',
      host: '127.0.0.1',
      port: server.port,
      username: 'root',
      poolSize: 1,
      enableQueryTimeout: true,
      maxQueryExecutionTime: TIMEOUT_MS,
      subscribers: [DiscardTimedOutConnections],
      logger: { logQuery: () => undefined, logQueryError: () => undefined, logQuerySlow: () => undefined, logSchemaBuild: () => undefined, logMigration: () => undefined, log: () => undefined },
    }).initialize();
    try {
      const before = server.connections();
      const started = Date.now();
      await expect(db.query('SELECT SLEEP(60)')).rejects.toMatchObject({ driverError: { code: QUERY_TIMEOUT_CODE } });
      expect(Date.now() - started).toBeLessThan(5000);
      await expect(db.query('SELECT version() AS version')).resolves.toEqual([{ version: '10.11.0-MariaDB' }]);
      expect(server.connections()).toBe(before + 1);
    } finally {
      await db.destroy().catch(() => undefined);
    }
  });
});

describe('TypeORM and better-sqlite3 under EmbeddedStatementQueue', () => {
  let db: DataSource;
  beforeEach(async () => {
    db = await new DataSource({ type: 'better-sqlite3', database: ':memory:', subscribers: [EmbeddedStatementQueue] }).initialize();
    await db.query('CREATE TABLE t (n INTEGER)');
  });
  afterEach(() => db.destroy());

  it('the driver hands out one query runner for its one connection (why the queue exists)', () => {
    expect(db.createQueryRunner()).toBe(db.createQueryRunner());
    expect(db.manager.connection.createQueryRunner()).toBe(db.createQueryRunner());
  });

  it('waits for a subscriber\'s beforeQuery promise before it runs the statement, and hands afterQuery the same parameters array', async () => {
    let releaseGate!: () => void;
    const gate = new Promise<void>((resolve) => (releaseGate = resolve));
    const pairs: boolean[] = [];
    @EventSubscriber()
    class Gate implements EntitySubscriberInterface {
      private params?: unknown;
      beforeQuery(event: BeforeQueryEvent): Promise<void> | void {
        if (!event.query.startsWith('INSERT')) return;
        this.params = event.parameters;
        return gate;
      }
      afterQuery(event: { query: string; parameters?: unknown }): void {
        if (event.query.startsWith('INSERT')) pairs.push(event.parameters === this.params);
      }
    }
    const gated = await new DataSource({ type: 'better-sqlite3', database: ':memory:', subscribers: [Gate] }).initialize();
    try {
      await gated.query('CREATE TABLE g (n INTEGER)');
      const insert = gated.query('INSERT INTO g (n) VALUES (?)', [1]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await gated.query('SELECT n FROM g')).toEqual([]);
      releaseGate();
      await insert;
      expect(await gated.query('SELECT n FROM g')).toEqual([{ n: 1 }]);
      expect(pairs).toEqual([true]);
    } finally {
      await gated.destroy();
    }
  });

});
