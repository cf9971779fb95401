import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { isLockConflict } from './database-errors';
import { oneAtATime } from './driver-guards';

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
