import { constants, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { AnalysisAnswer } from './analysis.types';
import { analyzeOffline } from './offline-analysis';
import type { FromWorker, ToWorker } from './offline-analysis-runner';
import { Yielder } from './yielder';

/**
 * The offline analysis' worker thread (started by OfflineAnalysisRunner): it gathers a run's answers
 * chunk by chunk, analyses them on "run", and posts progress, then the result or the error. One run at a
 * time; a run is stopped by terminating the thread, so the analysis never needs to give way here.
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

let answers: AnalysisAnswer[] = [];
const post = (message: FromWorker) => port.postMessage(message);

port.on('message', (message: ToWorker) => {
  if (message.type === 'answers') {
    for (const answer of message.answers) answers.push(answer);
    return;
  }
  const input = { questions: message.questions, answers };
  answers = [];
  // Nothing else shares this event loop, so the analysis need not give way (an infinite budget never does).
  analyzeOffline(input, { yielder: new Yielder(Infinity), onProgress: (done, total) => post({ type: 'progress', done, total }) }).then(
    (result) => post({ type: 'result', result }),
    (error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined }),
  );
});
