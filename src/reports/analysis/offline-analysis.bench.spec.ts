import { analyzeOffline } from './offline-analysis';
import { syntheticAnswers } from './synthetic-answers';
import { Yielder } from './yielder';

/**
 * The analysis at the scale of the report target: 10,000 interviews of 10 questions, 100,000 answers.
 * A measurement, not a test: skipped unless ANALYSIS_BENCH=1, and it asserts nothing about time. Run:
 *
 *   ANALYSIS_BENCH=1 node --expose-gc --experimental-vm-modules --disable-warning=ExperimentalWarning \
 *     node_modules/jest/bin/jest.js --config jest.config.js src/reports/analysis/offline-analysis.bench.spec.ts
 *
 * It prints the wall time, the RSS and heap growth at their peak (sampled every 5 ms, which the
 * analysis's yielding lets run) and the longest the event loop went without turning.
 */
const run = process.env.ANALYSIS_BENCH === '1' ? describe : describe.skip;

run('offline analysis at scale', () => {
  it('analyses 100,000 answers', async () => {
    const count = Number(process.env.ANALYSIS_BENCH_ANSWERS ?? 100_000);
    const answers = syntheticAnswers(count);
    const questions = Array.from({ length: 10 }, (_, i) => ({ questionIndex: i, question: `Question ${i}` }));
    (globalThis as { gc?: () => void }).gc?.();
    const baseline = process.memoryUsage();
    let peakRss = baseline.rss;
    let peakHeap = baseline.heapUsed;
    let last = performance.now();
    let longestGap = 0;
    let gapAt = 0;
    const started = performance.now();
    const sampler = setInterval(() => {
      const now = performance.now();
      if (now - last > longestGap) [longestGap, gapAt] = [now - last, now - started];
      last = now;
      const usage = process.memoryUsage();
      peakRss = Math.max(peakRss, usage.rss);
      peakHeap = Math.max(peakHeap, usage.heapUsed);
    }, 5);
    const result = await analyzeOffline({ questions, answers }, { yielder: new Yielder() });
    const elapsed = performance.now() - started;
    clearInterval(sampler);
    const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
    process.stdout.write(
      [
        `answers: ${count} (${result.questions.length} reports, ${result.themes.length} themes across)`,
        `time: ${(elapsed / 1000).toFixed(2)} s`,
        `peak RSS growth: ${mb(peakRss - baseline.rss)}`,
        `peak heap growth: ${mb(peakHeap - baseline.heapUsed)}`,
        `longest event-loop gap: ${longestGap.toFixed(1)} ms, ${(gapAt / 1000).toFixed(2)} s in (sampler interval 5 ms)`,
      ].join('\n') + '\n',
    );
  }, 120_000);
});
