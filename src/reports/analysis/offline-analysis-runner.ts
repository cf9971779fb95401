import { OnApplicationShutdown } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AnswerSourceRow } from '../../invites/invites.repository';
import { gatherHere, type AnswerInsights } from '../report-answers';
import type { AnalysisAnswer, AnalysisOptions, AnalysisQuestion, AnalysisResult } from './analysis.types';
import { analyzeOffline, type OfflineAnalysisInput } from './offline-analysis';
import { ServiceLoad } from './service-load';
import type { Yielder } from './yielder';

/** What an analyst that reads the answers itself is given: the questions, the pages, the report's cutoff (ms). */
export interface ReportInput {
  questions: AnalysisQuestion[];
  pages: AsyncIterable<AnswerSourceRow[]>;
  cutoff: number;
  options: AnalysisOptions;
  /** The product's name: its words alone never name a theme offline. */
  productName: string;
  /** How many answers the pages hold, about (the interview's tally), when known: a large report gets a larger heap (heapMbFor). */
  answers?: number;
}

/**
 * What the main thread tells the worker. An analysis: chunks of answers, then the questions and "run".
 * A report: "begin" (the questions and the cutoff), the pages of invites as read, then "finish".
 */
export type ToWorker =
  | { type: 'answers'; answers: AnalysisAnswer[] }
  | { type: 'run'; questions: AnalysisQuestion[]; options?: AnalysisOptions; productName?: string | null }
  | { type: 'begin'; questions: AnalysisQuestion[]; cutoff: number; options: AnalysisOptions; productName: string }
  | { type: 'rows'; rows: AnswerSourceRow[] }
  | { type: 'finish' };
export type FromWorker =
  | { type: 'progress'; done: number; total: number }
  | { type: 'taken' }
  | { type: 'result'; result: AnalysisResult | AnswerInsights }
  | { type: 'error'; message: string; stack?: string };

/**
 * Answers per message to the worker: structured-cloning a message blocks the main thread, and at this
 * size one takes well under the Yielder's budget, so requests wait no longer than for any turn the analysis gives way.
 */
export const ANSWERS_PER_MESSAGE = 1000;

/**
 * Pages of invites sent ahead of those the worker has taken in: reading is faster than parsing, and
 * without a bound the pages waiting in the worker's queue would hold much of the interview twice.
 */
const PAGES_AHEAD = 2;

/**
 * The worker's young generation. Left to V8, it sizes it from the machine's memory (up to 64 MB
 * semi-spaces on a 24 GB machine, about 192 MB) and the analysis, allocating fast, grows it all the way;
 * capped here, a 100,000-answer report's peak RSS growth fell by about 60 MB (≈330 → ≈270 MB) at no
 * cost in time. The worker does batch work: it gains nothing from a larger one.
 */
const WORKER_YOUNG_GENERATION_MB = 32;

/**
 * The worker's heap limit when none is configured (REPORT_WORKER_HEAP_MB), for runs of up to about
 * 390,000 answers; larger runs get more (heapMbFor). V8 lets a heap grow between full collections by a
 * factor it takes from the heap's limit: 4x its live size from a 2 GB limit up (64-bit, as Node is
 * built here; a worker's default limit on a 24 GB machine is about 4.3 GB), 1.3x to 2x below. With
 * 1,536 MB (1.8x), a 100,000-answer report's worker heap peaked at 130-160 MB used and 180-200 MB
 * committed rather than 230-250 and 255-280, and the service's RSS growth during the bench's report at
 * 245-322 MB rather than 332-460 (the bench's runs on 2026-11-29; its target, 300 MB, met in some), and
 * 241-317 MB (four runs) once vectorize wrote its rows into typed arrays of their final size (2026-11-30).
 * The price is the extra full collections: in the bench's quality section (three runs each) the report
 * took 11.6-15.1 s of CPU rather than 10.9-16.9, medians 11.9 and 11.0 (about 8% more), and the same
 * results.
 */
export const DEFAULT_WORKER_HEAP_MB = 1536;

/**
 * Heap a run may need per answer: a 100,000-answer report peaked at about 1.5 KB an answer (its live
 * data about 1.2 KB), and answers can be longer than the bench's. A run of more answers than the
 * configured limit allows for gets a worker with a limit this large, so that the contract's largest
 * studies (100,000 answers a question) are analysed as before, with V8's larger growth.
 */
const HEAP_BYTES_PER_ANSWER = 4096;

/** The heap limit for a run of `answers` answers (when known): the configured one, or more for a large run. */
export function heapMbFor(configuredMb: number, answers: number | undefined): number {
  return Math.max(configuredMb, Math.ceil(((answers ?? 0) * HEAP_BYTES_PER_ANSWER) / (1024 * 1024)));
}

/** How `send` feeds a run: whether its outcome is known already, and a wait until the worker has taken `count` pages. */
interface Feed {
  over(): boolean;
  taken(count: number): Promise<void>;
}

/** The worker thread stopped in the middle of a run (it crashed, ran out of memory, or was terminated). */
export class AnalysisWorkerError extends Error {}

export interface OfflineAnalysisRun {
  /** Gives the event loop a turn between chunks sent to the worker (and, in-process, during the analysis). */
  yielder: Yielder;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface OfflineAnalysisRunnerOptions {
  /** The compiled worker entry; by default the one beside this file. */
  workerFile?: string;
  /** The worker's heap limit in MB (its old generation) for runs that need no more (heapMbFor); DEFAULT_WORKER_HEAP_MB unless given. */
  heapMb?: number;
}

/**
 * Runs the offline analysis in a worker thread (a report's whole answer part: parsing, gathering,
 * analysing, checking quotes; or analyzeOffline of answers already gathered), so that neither its CPU
 * nor the garbage collection of its large heap pauses the event loop that serves requests (yielding
 * alone cannot help with the GC).
 * One worker per process, started when a run comes, kept while runs follow one another, and let go
 * once none is waiting: an idle worker would keep its heap (≈150 MB after a large report) for
 * nothing, and a new one starts in a fraction of a report's time. A crash or an abort (which
 * terminates it: the analysis does not give way inside the worker, so it could not read a "stop"
 * message) makes the next run start a fresh one. Runs go one at a time.
 *
 * When the compiled worker entry is missing, the analysis runs in this process as it did before,
 * giving way through the run's Yielder: that is the case under Jest, which runs the TypeScript sources
 * in-process and has no .js beside them for a Worker to load.
 */
export class OfflineAnalysisRunner implements OnApplicationShutdown {
  /** null: in-process. */
  readonly workerFile: string | null;
  private worker?: Worker;
  private queue: Promise<unknown> = Promise.resolve();
  /** Runs queued or running: the worker is let go when the last one ends. */
  private runs = 0;
  private stopped = false;
  /** This thread's load, which the worker reads to know whether to rest. */
  private readonly load = new ServiceLoad();

  /** The worker's heap limit, in MB, for runs that need no more (heapMbFor). */
  readonly heapMb: number;
  /** The running worker's heap limit. */
  private workerHeapMb = 0;

  constructor(options: OfflineAnalysisRunnerOptions = {}) {
    const file = options.workerFile ?? join(__dirname, 'offline-analysis.worker.js');
    this.workerFile = existsSync(file) ? file : null;
    this.heapMb = options.heapMb ?? DEFAULT_WORKER_HEAP_MB;
  }

  /** analyzeOffline of answers already gathered (the LLM analyst's starting point and fallback). */
  analyze(input: OfflineAnalysisInput, run: OfflineAnalysisRun): Promise<AnalysisResult> {
    if (this.workerFile === null) return analyzeOffline(input, { yielder: run.yielder, onProgress: run.onProgress });
    const send = async (worker: Worker, feed: Feed) => {
      const { answers } = input;
      for (let from = 0; from < answers.length && !feed.over(); from += ANSWERS_PER_MESSAGE) {
        worker.postMessage({ type: 'answers', answers: answers.slice(from, from + ANSWERS_PER_MESSAGE) } satisfies ToWorker);
        if (run.yielder.due()) await run.yielder.giveWay();
      }
      worker.postMessage({ type: 'run', questions: input.questions, options: input.options, productName: input.productName } satisfies ToWorker);
    };
    return this.inTurn(() => this.inWorker<AnalysisResult>(this.workerFile!, send, run, input.answers.length));
  }

  /**
   * A report's answer part from the pages of invites as read: with a worker, each page goes over as
   * the database gave it (its transcripts still JSON text, which is copied, not walked) and the worker
   * parses, gathers, analyses and checks the quotes; this thread keeps nothing of the answers.
   */
  report(input: ReportInput, run: OfflineAnalysisRun): Promise<AnswerInsights> {
    if (this.workerFile === null) return this.reportHere(input, run);
    const send = async (worker: Worker, feed: Feed) => {
      worker.postMessage({ type: 'begin', questions: input.questions, cutoff: input.cutoff, options: input.options, productName: input.productName } satisfies ToWorker);
      let sent = 0;
      for await (const rows of input.pages) {
        if (feed.over()) return;
        run.signal?.throwIfAborted();
        worker.postMessage({ type: 'rows', rows } satisfies ToWorker);
        await feed.taken(++sent - PAGES_AHEAD);
        if (run.yielder.due()) await run.yielder.giveWay();
      }
      worker.postMessage({ type: 'finish' } satisfies ToWorker);
    };
    return this.inTurn(() => this.inWorker<AnswerInsights>(this.workerFile!, send, run, input.answers));
  }

  /** The report's answer part in this process (no compiled worker entry, as under Jest), giving way as it goes. */
  private async reportHere(input: ReportInput, run: OfflineAnalysisRun): Promise<AnswerInsights> {
    const gathered = await gatherHere(
      input.pages,
      input.questions.map((q) => q.question),
      input.cutoff,
      run,
    );
    const analysis = await analyzeOffline(
      { questions: input.questions, answers: gathered.answers, options: input.options, productName: input.productName },
      { yielder: run.yielder, onProgress: run.onProgress },
    );
    return gathered.insights(analysis);
  }

  /** Whether a worker thread is up (tests; an idle runner has none). */
  get hasWorker(): boolean {
    return this.worker !== undefined;
  }

  /** Runs go one at a time: the worker holds one run's answers. When no run is left, the worker goes. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    this.runs++;
    const next = this.queue.then(work).finally(() => {
      if (--this.runs > 0 || !this.worker) return;
      const idle = this.worker;
      this.worker = undefined;
      void idle.terminate();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  /** One run in the worker: `send` feeds it (giving way between messages); the worker answers progress, then a result or an error. */
  private async inWorker<T>(file: string, send: (worker: Worker, feed: Feed) => Promise<void>, run: OfflineAnalysisRun, answers: number | undefined): Promise<T> {
    run.signal?.throwIfAborted();
    if (this.stopped) throw new AnalysisWorkerError('the offline analysis cannot start: the service is stopping');
    const heapMb = heapMbFor(this.heapMb, answers);
    // A worker's limit is set when it starts: a run that needs more than the idle worker's gets a new one.
    if (this.worker && this.workerHeapMb < heapMb) {
      void this.worker.terminate();
      this.worker = undefined;
    }
    const worker = (this.worker ??= this.start(file, heapMb));
    const limitMb = this.workerHeapMb;
    let settle!: { resolve: (result: T) => void; reject: (error: unknown) => void };
    const outcome = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
    // Once the outcome is known (a crash, an abort), sending stops: no more pages are read for nothing.
    let over = false;
    let taken = 0;
    let onTaken: (() => void) | undefined;
    const wake = () => {
      onTaken?.();
      onTaken = undefined;
    };
    outcome.then(
      () => ((over = true), wake()),
      () => ((over = true), wake()),
    );
    const feed: Feed = {
      over: () => over,
      taken: async (count) => {
        while (taken < count && !over) await new Promise<void>((resolve) => (onTaken = resolve));
      },
    };
    const onMessage = (message: FromWorker) => {
      switch (message.type) {
        case 'progress':
          return run.onProgress?.(message.done, message.total);
        case 'taken':
          taken++;
          return wake();
        case 'result':
          return settle.resolve(message.result as T);
        case 'error':
          return settle.reject(Object.assign(new AnalysisWorkerError(`the offline analysis failed in its worker: ${message.message}`), { stack: message.stack }));
      }
    };
    const onError = (error: Error) =>
      settle.reject(
        (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new AnalysisWorkerError(`the offline analysis ran out of memory: it needs more than its worker's ${limitMb} MB heap (REPORT_WORKER_HEAP_MB)`, { cause: error })
          : new AnalysisWorkerError(`the offline analysis worker crashed: ${error.message}`, { cause: error }),
      );
    const onExit = (code: number) => settle.reject(new AnalysisWorkerError(`the offline analysis worker exited (code ${code}) before it finished`));
    const onAbort = () => {
      settle.reject(run.signal!.reason);
      void worker.terminate();
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    run.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // Sending stops as soon as the outcome is known (an abort, a crash): whichever settles first wins.
      await Promise.race([send(worker, feed), outcome]);
      return await outcome;
    } catch (error) {
      // The worker is in an unknown state (crashed, terminated, or holding half a run's answers): the next run starts a fresh one.
      if (this.worker === worker) this.worker = undefined;
      void worker.terminate();
      throw error;
    } finally {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      run.signal?.removeEventListener('abort', onAbort);
    }
  }

  private start(file: string, heapMb: number): Worker {
    const worker = new Worker(file, {
      workerData: { serviceLoad: this.load.buffer },
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: heapMb },
    });
    this.workerHeapMb = heapMb;
    this.load.start();
    // A worker that dies between runs is replaced on the next one; its 'error' must not be unhandled.
    worker.on('error', () => undefined).on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      if (!this.worker) this.load.stop();
    });
    return worker;
  }
}
