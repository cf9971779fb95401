import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { ReportAnswers } from '../report-answers';
import type { AnalysisAnswer, AnalysisOptions, AnalysisQuestion } from './analysis.types';
import { analyzeOffline } from './offline-analysis';
import type { FromWorker, ToWorker } from './offline-analysis-runner';
import { serviceBusy } from './service-load';
import { Yielder } from './yielder';

/**
 * The offline analysis' worker thread (started by OfflineAnalysisRunner). One run at a time, either
 * an analysis (answers chunk by chunk, then "run") or a report (the pages of invites as read, then
 * "finish": parsed, gathered, analysed, quotes checked); it posts progress, then the result or the
 * error. A run is stopped by terminating the thread: the work gives way only to rest (below), never to read a "stop".
 */
const port = parentPort;
if (!port) throw new Error('offline-analysis.worker is a worker thread entry, not a module to import');

// Background work: where cores are few, the threads that serve requests (and the database) go first.
// Only on Linux, where a thread's nice value is its own: elsewhere this would lower the whole service.
if (process.platform === 'linux') {
  try {
    setPriority(constants.priority.PRIORITY_LOW);
  } catch {
    // Not permitted here: the analysis runs at the service's priority.
  }
}

/**
 * While the service is busy (see ServiceLoad), the worker works 10 ms, then rests 10 ms. Its thread's
 * low priority does not cover what its work sets going elsewhere: V8's garbage collection and compiler
 * threads, and the service's thread and the database reading the pages it asks for. Measured on 2
 * cores with products/getOne at 200 req/s while a 100,000-answer report ran, p99 was 8-23 ms against
 * 4-12 ms idle without rest, and 6-7 ms (1.3-1.5× idle, 5 rounds) with it. While it is not, it only gives way a
 * turn, to take in the pages sent to it.
 */
const WORK_MS = 10;
const REST_MS = 10;
const busy = serviceBusy((workerData as { serviceLoad: SharedArrayBuffer }).serviceLoad);
const paced = new Yielder(WORK_MS, undefined, () => (busy() ? REST_MS : 0));
const post = (message: FromWorker) => port.postMessage(message);
const fail = (error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined });
const onProgress = (done: number, total: number) => post({ type: 'progress', done, total });

let answers: AnalysisAnswer[] = [];
let report: { questions: AnalysisQuestion[]; options: AnalysisOptions; productName: string; gathered: ReportAnswers } | undefined;
// Pages are gathered in the order they came, each after the one before.
let gathering: Promise<void> = Promise.resolve();

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'answers':
      for (const answer of message.answers) answers.push(answer);
      return;
    case 'run': {
      const input = { questions: message.questions, answers, options: message.options, productName: message.productName };
      answers = [];
      analyzeOffline(input, { yielder: paced, onProgress }).then((result) => post({ type: 'result', result }), fail);
      return;
    }
    case 'begin':
      report = { questions: message.questions, options: message.options, productName: message.productName, gathered: new ReportAnswers(message.questions.map((q) => q.question), message.cutoff) };
      gathering = Promise.resolve();
      return;
    case 'rows': {
      const { gathered } = report!;
      // Taken in: the service's thread sends the next page (it keeps only a few in flight).
      gathering = gathering.then(() => gathered.add(message.rows, paced)).then(() => post({ type: 'taken' }));
      return;
    }
    case 'finish': {
      const { questions, options, productName, gathered } = report!;
      report = undefined;
      gathering
        .then(() => analyzeOffline({ questions, answers: gathered.answers, options, productName }, { yielder: paced, onProgress }))
        .then((analysis) => post({ type: 'result', result: gathered.insights(analysis) }), fail);
      return;
    }
  }
});
