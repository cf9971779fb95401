import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { EmbeddedStatementQueue } from './driver-guards';
import { TRANSACTION_ATTEMPTS, transaction } from './transaction';

/** A DataSource whose transactions fail with the given driver codes, in turn, then succeed. */
function failing(...codes: string[]) {
  let calls = 0;
  const dataSource = {
    transaction: async <T>(work: (db: EntityManager) => Promise<T>): Promise<T> => {
      const code = codes[calls++];
      if (code) throw Object.assign(new Error(`driver says ${code}`), { code });
      return work({} as EntityManager);
    },
  } as unknown as DataSource;
  return { dataSource, calls: () => calls };
}

describe(transaction.name, () => {
  it('runs the work again after a deadlock or a lock wait timeout, and answers its value', async () => {
    const { dataSource, calls } = failing('ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT');
    await expect(transaction(dataSource, async () => 'done')).resolves.toBe('done');
    expect(calls()).toBe(3);
  });

  it(`gives up after ${TRANSACTION_ATTEMPTS} attempts with the last error`, async () => {
    const { dataSource, calls } = failing(...Array<string>(10).fill('ER_LOCK_DEADLOCK'));
    await expect(transaction(dataSource, async () => 'done')).rejects.toMatchObject({ code: 'ER_LOCK_DEADLOCK' });
    expect(calls()).toBe(TRANSACTION_ATTEMPTS);
  });

  it('does not run the work again after any other error', async () => {
    const { dataSource, calls } = failing('ER_DUP_ENTRY');
    await expect(transaction(dataSource, async () => 'done')).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect(calls()).toBe(1);
  });

  it("is the only way the service's code opens a transaction", () => {
    const root = join(__dirname, '..');
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    const opening = files.filter((f) => /\.transaction\(/.test(readFileSync(join(root, f), 'utf8'))).map((f) => relative(root, join(root, f)));
    expect(opening).toEqual(['database/transaction.ts']);
  });
});

describe('transactions on the embedded database', () => {
  let dataSource: DataSource;

  beforeEach(async () => {
    const { DataSource: Source } = await import('typeorm');
    dataSource = new Source({ type: 'better-sqlite3', database: ':memory:', subscribers: [EmbeddedStatementQueue] });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE t (n INTEGER)');
  });
  afterEach(() => dataSource.destroy());

  const rows = async () => ((await dataSource.query('SELECT n FROM t ORDER BY n')) as { n: number }[]).map((r) => r.n);
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it("keeps one transaction's writes when another, begun in the same tick, rolls back", async () => {
    const kept = transaction(dataSource, async (db) => {
      await db.query('INSERT INTO t (n) VALUES (1)');
      await turn();
      await db.query('INSERT INTO t (n) VALUES (2)');
    });
    const undone = transaction(dataSource, async (db) => {
      await db.query('INSERT INTO t (n) VALUES (3)');
      await turn();
      throw new Error('the work failed');
    });
    await expect(Promise.allSettled([kept, undone])).resolves.toMatchObject([{ status: 'fulfilled' }, { status: 'rejected' }]);
    expect(await rows()).toEqual([1, 2]);
    // Nothing left open on the one connection, so later writes outside a transaction are committed.
    expect(dataSource.createQueryRunner().isTransactionActive).toBe(false);
  });

  it("keeps a write made outside any transaction while another transaction is open, when that one rolls back", async () => {
    let began!: () => void;
    const open = new Promise<void>((resolve) => (began = resolve));
    const undone = transaction(dataSource, async (db) => {
      await db.query('INSERT INTO t (n) VALUES (1)');
      began();
      await turn();
      throw new Error('the work failed');
    });
    await open;
    // Written while the transaction is open, by no transaction (a request's write, say).
    const outside = dataSource.query('INSERT INTO t (n) VALUES (2)');
    await expect(Promise.allSettled([undone, outside])).resolves.toMatchObject([{ status: 'rejected' }, { status: 'fulfilled' }]);
    expect(await rows()).toEqual([2]);
  });

  it('queues a transaction begun by work that a finished transaction started and did not wait for', async () => {
    let spawned!: Promise<void>;
    let began!: () => void;
    const spawnedBegan = new Promise<void>((resolve) => (began = resolve));
    let asked!: () => void;
    const otherAsked = new Promise<void>((resolve) => (asked = resolve));
    await transaction(dataSource, async (db) => {
      await db.query('INSERT INTO t (n) VALUES (1)');
      // Like a listener told at commit: it keeps this context, and runs once the transaction is over.
      spawned = turn().then(() =>
        transaction(dataSource, async (inner) => {
          await inner.query('INSERT INTO t (n) VALUES (10)');
          began();
          await otherAsked;
          await turn();
          throw new Error('the spawned work failed');
        }),
      );
    });
    await spawnedBegan;
    const other = transaction(dataSource, async (db) => {
      await db.query('INSERT INTO t (n) VALUES (2)');
      await turn();
      await turn();
      await db.query('INSERT INTO t (n) VALUES (3)');
    });
    asked();
    await expect(Promise.allSettled([spawned, other])).resolves.toMatchObject([{ status: 'rejected', reason: { message: 'the spawned work failed' } }, { status: 'fulfilled' }]);
    expect(await rows()).toEqual([1, 2, 3]);
    expect(dataSource.createQueryRunner().isTransactionActive).toBe(false);
  });

  it('lets a transaction opened inside another nest instead of waiting for itself', async () => {
    await transaction(dataSource, async (db) => {
      await db.query('INSERT INTO t (n) VALUES (1)');
      await transaction(dataSource, (inner) => inner.query('INSERT INTO t (n) VALUES (2)'));
    });
    expect(await rows()).toEqual([1, 2]);
  });
});
