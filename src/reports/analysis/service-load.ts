import { performance } from 'node:perf_hooks';

/** How often the serving thread's load is sampled while a worker runs. */
const SAMPLE_MS = 10;
/** A sample window in which the event loop was busy this share of the time or more counts as busy (0.2 ms in 10: a request's work). */
const BUSY_AT = 0.02;
/** After a busy window, the service counts as busy this long: a light load (a request now and then) is protected too. */
const HOLD_MS = 1000;

/**
 * Whether the thread that serves requests has been busy lately, kept where the offline analysis' worker
 * thread can read it (shared memory, no messages). The worker rests between its turns of work only
 * while the service is busy: the rests are for requests' sake (the cores its work, its garbage
 * collection and the reads it causes take from them), and a service that serves nothing has none to
 * protect, so a report there takes its CPU time rather than twice it. Until the first sample says
 * otherwise, and once stopped, the service counts as busy.
 */
export class ServiceLoad {
  readonly buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  private readonly busy = new Int32Array(this.buffer).fill(1);
  private timer?: NodeJS.Timeout;
  private last = performance.eventLoopUtilization();
  /** When the last busy window ended. */
  private busySince = -Infinity;

  start(): void {
    if (this.timer) return;
    this.last = performance.eventLoopUtilization();
    // unref: sampling never keeps the process alive.
    this.timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.record(performance.eventLoopUtilization(now, this.last).utilization, performance.now());
      this.last = now;
    }, SAMPLE_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    Atomics.store(this.busy, 0, 1);
  }

  /** One sample: the event loop's utilization over the window that ended at `at` (ms, performance.now()). */
  record(utilization: number, at: number): void {
    if (utilization >= BUSY_AT) this.busySince = at;
    Atomics.store(this.busy, 0, at - this.busySince < HOLD_MS ? 1 : 0);
  }
}

/** The worker's view of a ServiceLoad's buffer: whether the service is busy now. */
export function serviceBusy(buffer: SharedArrayBuffer): () => boolean {
  const busy = new Int32Array(buffer);
  return () => Atomics.load(busy, 0) === 1;
}
