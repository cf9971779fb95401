import { performance } from 'node:perf_hooks';

/**
 * How long a loop may hold the event loop before it lets timers and I/O run. A request that arrives
 * while a report runs waits up to this long, so it sets how much a report adds to the service's p99;
 * giving way costs a few microseconds, so 1 ms keeps that cost near a percent of the report's time.
 */
export const DEFAULT_YIELD_BUDGET_MS = 1;

/**
 * Cooperative yielding for long loops: the analysis runs in the HTTP service's process, so a loop over
 * many answers calls `await yielder.tick()` once per item and gives the event loop a turn (through
 * setImmediate, after pending I/O and timers) whenever its time budget is spent. A tick that is not due
 * returns nothing, so awaiting it costs a microtask, not a turn of the event loop.
 */
export class Yielder {
  private last = performance.now();
  /** How many times it gave way: lets tests see that a loop ticks. */
  yields = 0;

  /** With `signal`: once it is aborted, the next turn given rejects with its reason, and the loop stops there. */
  constructor(
    private readonly budgetMs: number = DEFAULT_YIELD_BUDGET_MS,
    private readonly signal?: AbortSignal,
  ) {}

  tick(): Promise<void> | undefined {
    if (performance.now() - this.last < this.budgetMs) return undefined;
    return this.giveWay();
  }

  private async giveWay(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.signal?.throwIfAborted();
    this.yields++;
    this.last = performance.now();
  }
}
