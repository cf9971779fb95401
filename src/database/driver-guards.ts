import { AsyncLocalStorage } from 'node:async_hooks';
import { EventSubscriber } from 'typeorm';
import type { AfterQueryEvent, BeforeQueryEvent, DataSource, EntitySubscriberInterface } from 'typeorm';

/**
 * The two things the drivers need that their options do not give, each through a supported hook (TypeORM
 * subscribers: TypeORM waits for a subscriber's `beforeQuery` before it runs a statement, and tells
 * `afterQuery` how the statement went), never by replacing a library object's method. Each exists
 * because of a library behaviour that driver-guards.spec.ts pins: when one changes, that test fails, and
 * the guard is either needed no more or must change with it.
 */

/** A statement that outlives DB_STATEMENT_TIMEOUT_MS fails with this code (mysql2's own, for its per-query `timeout`). */
export const QUERY_TIMEOUT_CODE = 'PROTOCOL_SEQUENCE_TIMEOUT';

/**
 * MySQL: a connection whose query ran out of time is destroyed, never reused. mysql2's per-query
 * `timeout` (which TypeORM passes with `enableQueryTimeout`) answers the caller but leaves the query
 * running on the connection, and the pool hands that connection to the next request: whose statements
 * then queue behind the late one, without a timeout of their own (mysql2 starts a query's timer only
 * when the query reaches the wire). Destroying the connection takes it out of the pool, and a request
 * waiting for a connection is given a new one.
 */
@EventSubscriber()
export class DiscardTimedOutConnections implements EntitySubscriberInterface {
  afterQuery(event: AfterQueryEvent): void {
    if ((event.error as { code?: unknown } | undefined)?.code !== QUERY_TIMEOUT_CODE) return;
    (event.queryRunner as { databaseConnection?: { destroy?: () => void } }).databaseConnection?.destroy?.();
  }
}

/** The embedded database's turns in flight (transactions, and statements outside them), one chain per DataSource. */
const embeddedChains = new WeakMap<DataSource, Promise<unknown>>();
/**
 * Set inside an embedded transaction's turn: a transaction opened within it, while it is still open,
 * nests (a savepoint) instead of queueing behind itself, and its statements run at once. Work that
 * outlives the turn but kept its context (a promise it started and did not wait for) sees
 * `open: false` and queues like any other.
 */
const insideEmbedded = new AsyncLocalStorage<{ open: boolean }>();

const isEmbedded = (dataSource: DataSource) => dataSource.options?.type === 'better-sqlite3';

/**
 * On the embedded database, transactions run one after another, and a statement outside any
 * transaction waits for the transactions before it (EmbeddedStatementQueue). TypeORM's better-sqlite3
 * driver has a single connection and query runner: two transactions begun in the same tick (the report
 * worker's and the webhook relay's claims at start-up) would become a transaction and a savepoint inside
 * it, so one's rollback undid the other's writes, or the outer BEGIN was left open and every later
 * "commit" only released a savepoint; a request's write made while another transaction is open would be
 * undone with it. MySQL gives each transaction and statement a pooled connection of its own: no queue.
 */
export function oneAtATime<T>(dataSource: DataSource, run: () => Promise<T>): Promise<T> {
  if (!isEmbedded(dataSource) || insideEmbedded.getStore()?.open) return run();
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

/**
 * The embedded database's statements outside transactions take their turn in the queue above: a
 * statement waits (in beforeQuery) for the transactions queued before it, and holds its turn until it
 * has run (afterQuery). The driver gives both events the same parameters array, which pairs them.
 */
@EventSubscriber()
export class EmbeddedStatementQueue implements EntitySubscriberInterface {
  private readonly holding = new WeakMap<object, () => void>();

  beforeQuery(event: BeforeQueryEvent): Promise<void> | void {
    if (!isEmbedded(event.dataSource) || insideEmbedded.getStore()?.open || !Array.isArray(event.parameters)) return;
    let release!: () => void;
    const ran = new Promise<void>((resolve) => (release = resolve));
    this.holding.set(event.parameters, release);
    return new Promise<void>((started) => {
      void oneAtATime(event.dataSource, () => {
        started();
        return ran;
      });
    });
  }

  afterQuery(event: AfterQueryEvent): void {
    if (!Array.isArray(event.parameters)) return;
    const release = this.holding.get(event.parameters);
    if (!release) return;
    this.holding.delete(event.parameters);
    release();
  }
}
