import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
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
