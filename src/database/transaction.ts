import { Logger } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { isLockConflict } from '../common/database-errors';

export const TRANSACTION_ATTEMPTS = 5;
/** The first retry waits up to this long, each next one up to twice as long (full jitter). */
const BACKOFF_MS = 10;

const logger = new Logger('Database');

/**
 * Runs `work` in a transaction, and runs it again (a bounded number of times, after a random wait that
 * doubles) when the database rolled it back to break a deadlock or a lock wait: busy moments with many
 * writers at once (interviewees answering one interview together) make those, and they are not the
 * client's problem. `work` must do nothing outside the transaction that a second run would repeat.
 * After the last attempt the error is the caller's (the exception filter answers 503).
 */
export async function transaction<T>(dataSource: DataSource, work: (db: EntityManager) => Promise<T>, attempts = TRANSACTION_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await oneAtATime(dataSource, () => dataSource.transaction(work));
    } catch (error) {
      if (attempt >= attempts || !isLockConflict(error)) throw error;
      logger.warn({ msg: 'transaction rolled back by the database (a deadlock or a lock wait); running it again', attempt });
      await sleep(Math.random() * BACKOFF_MS * 2 ** (attempt - 1));
    }
  }
}

/**
 * On the embedded database, a statement outside any transaction waits for the transactions before it,
 * and a transaction begun meanwhile waits for it. The driver's one connection would otherwise run it
 * inside whatever transaction is open at that moment: a request's write made while the report worker's
 * transaction is open would be undone with it if that transaction rolls back. Called once per DataSource
 * (DatabaseModule; tests that make their own); MySQL runs each statement on a pooled connection of its own.
 */
export function queueEmbeddedStatements(dataSource: DataSource): void {
  if (dataSource.options.type !== 'better-sqlite3') return;
  // The driver hands out one query runner for the connection's lifetime: every statement goes through it.
  const runner = dataSource.createQueryRunner();
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  runner.query = ((...args: unknown[]) => oneAtATime(dataSource, () => query(...args))) as typeof runner.query;
}

/** The embedded database's transactions in flight, one chain per DataSource. */
const embeddedChains = new WeakMap<DataSource, Promise<unknown>>();
/**
 * Set inside an embedded transaction's turn: a transaction opened within it, while it is still open,
 * nests (a savepoint) instead of queueing behind itself. Work that outlives the turn but kept its
 * context (a promise it started and did not wait for) sees `open: false` and queues like any other.
 */
const insideEmbedded = new AsyncLocalStorage<{ open: boolean }>();

/**
 * On the embedded database, transactions (and statements outside them, see queueEmbeddedStatements) run
 * one after another. TypeORM's better-sqlite3 driver has a
 * single connection and query runner: two transactions begun in the same tick (the report worker's and
 * the webhook relay's claims at start-up) become a transaction and a savepoint inside it, so one's
 * rollback undid the other's writes, or the outer BEGIN was left open and every later "commit" only
 * released a savepoint. MySQL gives each transaction its own connection and needs no queue.
 */
function oneAtATime<T>(dataSource: DataSource, run: () => Promise<T>): Promise<T> {
  if (dataSource.options?.type !== 'better-sqlite3' || insideEmbedded.getStore()?.open) return run();
  const previous = embeddedChains.get(dataSource) ?? Promise.resolve();
  const result = previous.then(() => {
    const turn = { open: true };
    return insideEmbedded.run(turn, run).finally(() => (turn.open = false));
  });
  embeddedChains.set(
    dataSource,
    result.catch(() => undefined),
  );
  return result;
}
