import { performance } from 'node:perf_hooks';

/**
 * How long a loop may hold the event loop before it lets timers and I/O run. A request that arrives
 * while a report runs waits up to this long, so it sets how much a report adds to the service's p99;
 * giving way costs a few microseconds, so 1 ms keeps that cost near a percent of the report's time.
 */
export const DEFAULT_YIELD_BUDGET_MS = 1;

/**
 * Cooperative yielding for long loops that run in the HTTP service's process: a loop over many answers
 * writes `if (yielder.due()) await yielder.giveWay();` once per item and gives the event loop a turn
 * (through setImmediate, after pending I/O and timers) whenever its time budget is spent. The check is
 * synchronous on purpose: an `await` on every item, even of nothing, costs a microtask and a promise,
 * which over a report's million iterations was 1.3 GB of garbage and much of its time.
 */
export class Yielder {
  private last = performance.now();
  /** How many times it gave way: lets tests see that a loop gives way. */
  yields = 0;

  /**
   * With `signal`: once it is aborted, the next turn given rejects with its reason, and the loop stops
   * there. With `restMs`: each turn given lasts that long (a timer) rather than one turn of the event
   * loop, so that the loop takes at most budget / (budget + rest) of a core; as a function, it is asked
   * at each turn (0: one turn of the event loop).
   */
  constructor(
    private readonly budgetMs: number = DEFAULT_YIELD_BUDGET_MS,
    private readonly signal?: AbortSignal,
    private readonly restMs: number | (() => number) = 0,
  ) {}

  /** Whether the budget is spent: the loop should give way now. */
  due(): boolean {
    return performance.now() - this.last >= this.budgetMs;
  }

  /** A turn of the event loop; then the budget starts again (or, once the signal is aborted, its reason is thrown). */
  async giveWay(): Promise<void> {
    const rest = typeof this.restMs === 'function' ? this.restMs() : this.restMs;
    await new Promise<void>((resolve) => (rest > 0 ? setTimeout(resolve, rest) : setImmediate(resolve)));
    this.signal?.throwIfAborted();
    this.yields++;
    this.last = performance.now();
  }
}
