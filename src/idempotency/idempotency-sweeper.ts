import { Injectable } from '@nestjs/common';
import { Background } from '../common/background';
import { IDEMPOTENCY_SWEEP_EVERY_MS, IdempotencyService } from './idempotency.service';

/**
 * Deletes expired Idempotency-Keys every ten minutes in every instance of the HTTP service (a loop of the
 * Background component, BackgroundModule); a failure (database away) is logged once and waits for the
 * next time. Safe with several at once: each deletes what has expired.
 */
@Injectable()
export class IdempotencySweeper {
  constructor(idempotency: IdempotencyService, background: Background) {
    background.loop({ name: IdempotencySweeper.name, everyMs: IDEMPOTENCY_SWEEP_EVERY_MS, failing: 'idempotency key sweep failed; will try again' }, () => idempotency.sweep());
  }
}
