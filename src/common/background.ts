import { Injectable, Logger } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * Runs a function in the process's root async context: outside any request, transaction or span that
 * happens to call it. Captured when this module is first imported, at start-up, before any request.
 *
 * Background work (the webhook relay, the report worker) is woken from wherever something new appears:
 * a request's handler, or a transaction's commit. Started in that caller's context, it inherited
 * everything kept in AsyncLocalStorage there: the request's id (its log lines claimed to belong to a
 * request long answered) and, on the embedded database, the mark of the transaction that woke it (its
 * own transactions then skipped the queue and nested into whatever transaction was open, "no such
 * savepoint"). Every wake goes through here.
 */
export const outsideCaller: <R>(fn: () => R) => R = AsyncLocalStorage.snapshot();

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A piece of background work that looks every `everyMs`, and when woken. */
export interface LoopOptions {
  /** Names the loop in wake(name) and in the log. */
  name: string;
  everyMs: number;
  /** Looks at once when the service starts, not only after the first period. */
  atStart?: boolean;
  /** Said (once, as a warning) when a look fails; said again only after a look succeeded. */
  failing?: string;
  /** Said when a look succeeds after failing ones. */
  recovered?: string;
}

/** Work claimed from a table for a lease: each item by one instance at a time, due again when its lease ends. */
export interface LeasedWork<T> extends LoopOptions {
  leaseMs: number;
  /** Items run at once by this instance. */
  concurrency: number;
  /** Up to `limit` due items, claimed with `token` until `leaseEnds`. */
  claim(token: string, limit: number, now: Date, leaseEnds: Date): Promise<T[]>;
  /**
   * Runs a claimed item. `signal` aborts when the service stops (reason: BackgroundStopping) or the
   * lease was lost (reason: LeaseLost); the run then hands back or drops its claim as it sees fit.
   */
  run(item: T, signal: AbortSignal): Promise<void>;
  /**
   * Extends the claim to `leaseEnds`: called when a run starts and every third of the lease while it
   * runs; false (the claim no longer holds) aborts the run. Without it, a run must end within its lease.
   */
  renew?(item: T, leaseEnds: Date, now: Date): Promise<boolean>;
}

/** The abort reason when the service stops: not a failure, the claim goes back. */
export class BackgroundStopping extends Error {}
/** The abort reason when a renewal found the claim taken over (its lease ran out): not a failure. */
export class LeaseLost extends Error {}

/** Renewals no closer together than this, however short the lease. */
const MIN_RENEW_MS = 250;

/** One loop: its timer, the look under way, and the runs it started. */
class Loop {
  readonly logger: Logger;
  stopped = true;
  private timer?: NodeJS.Timeout;
  private looking?: Promise<void>;
  private again = false;
  private failed = false;
  readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  /** When the wakes asked for (wakeAt) fall due, earliest first, and the timer for the first. */
  private readonly wakesDue: number[] = [];
  private wakeTimer?: NodeJS.Timeout;

  constructor(
    readonly options: LoopOptions,
    private readonly look: (loop: Loop) => Promise<void>,
  ) {
    this.logger = new Logger(options.name);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.options.everyMs);
    this.timer.unref();
    if (this.options.atStart) this.wake();
  }

  /** Looks now (again right after, when a look is under way), in a context of its own. */
  wake(): void {
    outsideCaller(() => this.begin());
  }

  /** Wakes at `at` (ms since the epoch), unless it stopped meanwhile. One timer, for the earliest. */
  wakeAt(at: number): void {
    if (this.stopped) return;
    const index = this.wakesDue.findIndex((t) => t > at);
    this.wakesDue.splice(index === -1 ? this.wakesDue.length : index, 0, at);
    if (index === 0 || this.wakesDue.length === 1) this.armWakeTimer();
  }

  private armWakeTimer(): void {
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    if (this.stopped || this.wakesDue.length === 0) return;
    this.wakeTimer = setTimeout(() => {
      const now = Date.now();
      while (this.wakesDue.length > 0 && this.wakesDue[0] <= now) this.wakesDue.shift();
      this.wake();
      this.armWakeTimer();
    }, Math.max(0, this.wakesDue[0] - Date.now()));
    this.wakeTimer.unref();
  }

  /** A look under way, if any. */
  get current(): Promise<void> | undefined {
    return this.looking;
  }

  /** Stops looking, waits for the look under way, then stops the runs under way and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.wakeTimer);
    this.wakesDue.length = 0;
    await this.looking;
    const running = [...this.inFlight.values()];
    for (const r of running) r.abort.abort(new BackgroundStopping(`${this.options.name} is stopping`));
    await Promise.all(running.map((r) => r.done));
  }

  private begin(): void {
    if (this.stopped) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = this.look(this)
      .then(
        () => {
          if (this.failed && this.options.recovered) this.logger.log({ msg: this.options.recovered });
          this.failed = false;
        },
        (error: unknown) => {
          // The database away, most likely: said once, then tried again at the next wake.
          if (!this.failed) this.logger.warn({ msg: this.options.failing ?? `${this.options.name} failed; will try again`, error: errorText(error) });
          this.failed = true;
        },
      )
      .finally(() => {
        this.looking = undefined;
        if (this.again) {
          this.again = false;
          this.begin();
        }
      });
  }
}

/** What a registered loop's owner holds: wake it, or stop it. */
export interface LoopHandle {
  wake(): void;
  /** Wakes at `at` (ms since the epoch): a retry falls due then. */
  wakeAt(at: number): void;
  stop(): Promise<void>;
}

/**
 * The service's background work, in one place: the webhook relay, the report worker and the sweeps
 * register here (BackgroundModule lists them), and this component wakes them (on their period, when
 * told, in a context of their own), claims their work for a lease, renews it while it runs, and stops
 * them at shutdown, handing back what was under way. Processes without BackgroundModule (the seed,
 * the benchmark) register nothing: a wake there does nothing.
 */
@Injectable()
export class Background {
  private readonly loops = new Map<string, Loop>();

  /** A loop whose every look runs `look` (a failure is logged once and tried again at the next wake). */
  loop(options: LoopOptions, look: () => Promise<void>): LoopHandle {
    return this.add(new Loop(options, () => look()));
  }

  /**
   * A loop that claims due items while it has room for them and runs each (without waiting for it: a
   * finished run wakes the loop for the next), renewing the claim while it runs when `work.renew` is given.
   */
  leased<T>(work: LeasedWork<T>): LoopHandle {
    return this.add(new Loop(work, (loop) => this.pump(loop, work)));
  }

  /** Wakes the loop of that name, if this process runs it. */
  wake(name: string): void {
    this.loops.get(name)?.wake();
  }

  /** Starts every loop (BackgroundModule, at bootstrap). */
  start(): void {
    for (const loop of this.loops.values()) loop.start();
  }

  /** Stops every loop and waits for what they had under way (BackgroundModule, at shutdown). */
  async stop(): Promise<void> {
    await Promise.all([...this.loops.values()].map((loop) => loop.stop()));
  }

  private add(loop: Loop): LoopHandle {
    this.loops.set(loop.options.name, loop);
    return { wake: () => loop.wake(), wakeAt: (at) => loop.wakeAt(at), stop: () => loop.stop() };
  }

  private async pump<T>(loop: Loop, work: LeasedWork<T>): Promise<void> {
    while (!loop.stopped) {
      const room = work.concurrency - loop.inFlight.size;
      if (room <= 0) return;
      const now = new Date();
      const claimed = await work.claim(randomUUID(), room, now, new Date(now.getTime() + work.leaseMs));
      for (const item of claimed) this.begin(loop, work, item);
      if (claimed.length < room) return;
    }
  }

  private begin<T>(loop: Loop, work: LeasedWork<T>, item: T): void {
    const key = randomUUID();
    const abort = new AbortController();
    const done = this.hold(work, item, abort)
      .catch((error: unknown) => {
        // The claim stays; its lease ends and the item is due again.
        loop.logger.warn({ msg: `${work.name} could not finish a claimed item; it is due again when its lease ends`, error: errorText(error) });
      })
      .finally(() => {
        loop.inFlight.delete(key);
        loop.wake();
      });
    loop.inFlight.set(key, { abort, done });
  }

  /** Runs a claimed item, renewing its lease meanwhile when the work renews. */
  private async hold<T>(work: LeasedWork<T>, item: T, abort: AbortController): Promise<void> {
    const renew = work.renew?.bind(work);
    if (!renew) return work.run(item, abort.signal);
    const extend = async () => {
      const now = new Date();
      if (!(await renew(item, new Date(now.getTime() + work.leaseMs), now))) abort.abort(new LeaseLost(`${work.name}: the claim was taken over`));
    };
    const heartbeat = setInterval(() => void extend().catch(() => undefined), Math.max(MIN_RENEW_MS, Math.floor(work.leaseMs / 3)));
    try {
      await extend();
      await work.run(item, abort.signal);
    } finally {
      clearInterval(heartbeat);
    }
  }
}
