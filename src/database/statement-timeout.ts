import type * as Mysql2 from 'mysql2';

/**
 * DB_STATEMENT_TIMEOUT_MS on MySQL/MariaDB: a bound on how long anything waits on the database, so that
 * a database that freezes (rather than dies) costs bounded waits, not hung requests.
 *
 * mysql2's own per-query timeout answers the caller but leaves the connection waiting for the late
 * reply, and the pool hands it to the next request in that state; and the pool has no bound at all on
 * the wait for a free connection. So the driver handed to TypeORM (its public `driver` option) is
 * mysql2 with two waits bounded: for a pooled connection, and for each query's answer. A connection
 * whose query timed out is destroyed, never reused. A request's first wait that runs out ends it (503),
 * so while the database is frozen a request waits the timeout once. (The bound is per wait, not per
 * request: a request may also wait on other things, such as an LLM interviewer's turn, first.)
 */

/** Raised by a bounded wait; the exception filter answers 503 with Retry-After (see database-errors). */
export class DatabaseTimeoutError extends Error {
  readonly code = 'PROTOCOL_SEQUENCE_TIMEOUT';
  readonly fatal = true;

  constructor(what: string, ms: number) {
    super(`the database did not answer ${what} within ${ms} ms`);
  }
}

type Callback = (err: Error | null, ...results: unknown[]) => void;

/**
 * Calls `start(callback)` and passes its outcome to `done`, unless `ms` pass first: then `done` gets a
 * DatabaseTimeoutError, `onLate` runs, and the late outcome (if it ever comes) goes to `late` instead.
 */
function bounded(ms: number, what: string, start: (cb: Callback) => void, done: Callback, onLate: () => void, late: Callback = () => undefined): void {
  let settled = false;
  const timer = setTimeout(() => {
    settled = true;
    onLate();
    done(new DatabaseTimeoutError(what, ms));
  }, ms);
  start((err, ...results) => {
    if (settled) return late(err, ...results);
    settled = true;
    clearTimeout(timer);
    done(err, ...results);
  });
}

const GUARDED = Symbol('statement timeout');
type GuardedConnection = Mysql2.PoolConnection & { [GUARDED]?: true };

/** Each query of this connection is bounded; one that times out takes the connection with it. */
function guardConnection(connection: GuardedConnection, timeoutMs: number): Mysql2.PoolConnection {
  if (connection[GUARDED]) return connection;
  const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
  // Replaces this connection's own query (not the prototype's): every path TypeORM takes, the promise
  // wrapper included, goes through it.
  Object.defineProperty(connection, 'query', {
    configurable: true,
    value: (...args: unknown[]) => {
      const cb = args[args.length - 1];
      if (typeof cb !== 'function') return query(...args);
      return bounded(
        timeoutMs,
        'a query',
        (wrapped) => query(...args.slice(0, -1), wrapped),
        cb as Callback,
        () => connection.destroy(),
      );
    },
  });
  // TypeORM asks each query for connection.promise(), which builds a new promise wrapper (and runs a
  // require) every time; the wrapper holds no state of its own, so one per connection serves them all.
  const promise = connection.promise.bind(connection);
  let wrapper: ReturnType<typeof promise> | undefined;
  Object.defineProperty(connection, 'promise', {
    configurable: true,
    value: (promiseImpl?: PromiseConstructor) => (promiseImpl ? promise(promiseImpl) : (wrapper ??= promise())),
  });
  connection[GUARDED] = true;
  return connection;
}

/** A pool whose getConnection is bounded and hands out guarded connections. */
function guardPool(pool: Mysql2.Pool, timeoutMs: number): Mysql2.Pool {
  const getConnection = pool.getConnection.bind(pool);
  Object.defineProperty(pool, 'getConnection', {
    configurable: true,
    value: (cb: (err: Error | null, connection?: Mysql2.PoolConnection) => void) =>
      bounded(
        timeoutMs,
        'with a free connection',
        (wrapped) => getConnection(wrapped as never),
        (err, connection) => (err ? cb(err) : cb(null, guardConnection(connection as Mysql2.PoolConnection, timeoutMs))),
        () => undefined,
        // A connection that arrives after its requester gave up goes straight back.
        (_err, connection) => (connection as Mysql2.PoolConnection | undefined)?.release(),
      ),
  });
  return pool;
}

/** mysql2, with the pools it creates bounded as above: pass as TypeORM's `driver` option. */
export function mysqlWithStatementTimeout(mysql: typeof Mysql2, timeoutMs: number): typeof Mysql2 {
  return { ...mysql, createPool: (options: Mysql2.PoolOptions) => guardPool(mysql.createPool(options), timeoutMs) } as typeof Mysql2;
}
