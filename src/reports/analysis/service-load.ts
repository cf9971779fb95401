import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

/** Node's channel for every HTTP request the process's servers receive (stock, no middleware of ours). */
const REQUEST_START = 'http.server.request.start';
/** How often the worker's view is brought up to date while a worker runs. */
const UPDATE_MS = 10;
/** The service counts as busy while it received this many requests in the last WINDOW_MS or more. */
const BUSY_REQUESTS = 20;
const WINDOW_MS = 1000;

/**
 * Whether the service is busy serving requests, kept where the offline analysis' worker thread can read
 * it (shared memory, no messages). The worker rests between its turns of work only while it is: the
 * rests are for requests' sake (the cores its work, its garbage collection and the reads it causes
 * take from them), and a service that serves nothing has none to protect, so a report there takes its
 * CPU time rather than twice it. Busy means a steady load (20 requests a second or more); a client
 * polling a report's progress a few times a second is not one. Until the first update, and once
 * stopped, the service counts as busy.
 */
export class ServiceLoad {
  readonly buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  private readonly busy = new Int32Array(this.buffer).fill(1);
  private timer?: NodeJS.Timeout;
  /** When the requests of the last WINDOW_MS arrived, oldest first. */
  private arrivals: number[] = [];
  private readonly onRequest = () => this.arrived(performance.now());

  start(): void {
    if (this.timer) return;
    subscribe(REQUEST_START, this.onRequest);
    // unref: keeping the worker's view current never keeps the process alive.
    this.timer = setInterval(() => this.update(performance.now()), UPDATE_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    unsubscribe(REQUEST_START, this.onRequest);
    this.arrivals = [];
    Atomics.store(this.busy, 0, 1);
  }

  /** A request arrived at `at` (ms, performance.now()). */
  arrived(at: number): void {
    this.arrivals.push(at);
  }

  /** The worker's view as of `at`: busy while WINDOW_MS held BUSY_REQUESTS requests or more. */
  update(at: number): void {
    let old = 0;
    while (old < this.arrivals.length && this.arrivals[old] <= at - WINDOW_MS) old++;
    if (old > 0) this.arrivals.splice(0, old);
    Atomics.store(this.busy, 0, this.arrivals.length >= BUSY_REQUESTS ? 1 : 0);
  }
}

/** The worker's view of a ServiceLoad's buffer: whether the service is busy now. */
export function serviceBusy(buffer: SharedArrayBuffer): () => boolean {
  const busy = new Int32Array(buffer);
  return () => Atomics.load(busy, 0) === 1;
}
