import { analyzeOffline } from './offline-analysis';
import { OfflineAnalysisRunner, heapMbFor } from './offline-analysis-runner';
import { syntheticAnswers } from './synthetic-answers';
import { Yielder } from './yielder';

// The worker thread itself is tested against the build in test/offline-analysis-worker.e2e-spec.ts.
describe(OfflineAnalysisRunner.name, () => {
  const questions = [0, 1, 2].map((questionIndex) => ({ questionIndex, question: `Question ${questionIndex + 1}` }));
  const answers = syntheticAnswers(600, { questions: 3 });

  it('analyses in this process, giving way, when there is no compiled worker entry (as under Jest)', async () => {
    const sut = new OfflineAnalysisRunner();
    expect(sut.workerFile).toBeNull();
    const yielder = new Yielder(0);
    const progress: number[] = [];
    const result = await sut.analyze({ questions, answers }, { yielder, onProgress: (done) => progress.push(done) });
    expect(result).toEqual(await analyzeOffline({ questions, answers }));
    expect(yielder.yields).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(answers.length * 2);
    // Giving way at every check makes this slow on a busy machine: the bound is generous, not a speed target.
  }, 60_000);

  it('stops an in-process run when its signal aborts, with the reason', async () => {
    const stop = new AbortController();
    const reason = new Error('stopping');
    const run = new OfflineAnalysisRunner().analyze({ questions, answers }, { yielder: new Yielder(0, stop.signal), signal: stop.signal });
    stop.abort(reason);
    await expect(run).rejects.toBe(reason);
  });
});

describe(heapMbFor.name, () => {
  it('is the configured limit for a run of unknown size or one it has room for', () => {
    expect(heapMbFor(1536, undefined)).toBe(1536);
    expect(heapMbFor(1536, 0)).toBe(1536);
    expect(heapMbFor(1536, 100_000)).toBe(1536);
    expect(heapMbFor(1536, 393_216)).toBe(1536);
  });

  it('gives a larger run 4 KB an answer', () => {
    expect(heapMbFor(1536, 393_217)).toBe(1537);
    expect(heapMbFor(1536, 1_000_000)).toBe(3907);
    expect(heapMbFor(256, 100_000)).toBe(391);
  });
});
