import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { AnalysisQuestion } from '../src/reports/analysis/analysis.types';
import type { AnswerSourceRow } from '../src/invites/invites.repository';
import { analyzeOffline } from '../src/reports/analysis/offline-analysis';
import { AnalysisWorkerError, OfflineAnalysisRunner } from '../src/reports/analysis/offline-analysis-runner';
import { syntheticAnswers } from '../src/reports/analysis/synthetic-answers';
import { Yielder } from '../src/reports/analysis/yielder';
import { builtMain } from './helpers/built-server';

/**
 * The offline analysis in its worker thread, as production runs it: Jest runs our TypeScript in-process
 * and has no compiled worker entry beside it (the runner then analyses in-process), so these runners are
 * pointed at the entry of the e2e run's build (builtMain).
 */
describe('OfflineAnalysisRunner with its worker thread', () => {
  const questions: AnalysisQuestion[] = Array.from({ length: 10 }, (_, i) => ({ questionIndex: i, question: `Question ${i + 1}` }));
  // Includes answers in other languages (one without a stop-word list) and unattributed ones.
  const answers = syntheticAnswers(12_000);
  let workerFile: string;
  let dir: string;
  const runners: OfflineAnalysisRunner[] = [];
  const runner = (file = workerFile) => {
    const made = new OfflineAnalysisRunner({ workerFile: file });
    runners.push(made);
    return made;
  };

  beforeAll(() => {
    const build = dirname(dirname(builtMain()));
    workerFile = join(build, 'src', 'reports', 'analysis', 'offline-analysis.worker.js');
    // The build lives in a temporary directory, and the worker does not see Jest's process.env (NODE_PATH,
    // as BuiltServer gives it): its requires find the project's packages through a link instead.
    if (!existsSync(join(build, 'node_modules'))) symlinkSync(resolve(__dirname, '..', 'node_modules'), join(build, 'node_modules'), 'dir');
    dir = mkdtempSync(join(tmpdir(), 'irs-analysis-worker-'));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(runners.map((r) => r.onApplicationShutdown()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** A worker entry that crashes (`how`) on its first run, and is the real one from then on. */
  function crashingOnce(how: 'throw' | 'exit'): string {
    const file = join(dir, `crash-${how}.js`);
    const crash = how === 'throw' ? "throw new Error('boom')" : 'process.exit(7)';
    writeFileSync(
      file,
      `const { parentPort } = require('node:worker_threads');
       const fs = require('node:fs');
       const marker = ${JSON.stringify(`${file}.crashed`)};
       if (!fs.existsSync(marker)) parentPort.on('message', (m) => { if (m.type === 'run') { fs.writeFileSync(marker, ''); ${crash}; } });
       require(${JSON.stringify(workerFile)});`,
    );
    return file;
  }

  it('uses the compiled worker entry when there is one', () => {
    expect(runner().workerFile).toBe(workerFile);
  });

  it('gives the same result as the analysis in this process, and maps its progress', async () => {
    const progress: [number, number][] = [];
    const inWorker = await runner().analyze({ questions, answers }, { yielder: new Yielder(), onProgress: (done, total) => progress.push([done, total]) });
    const inProcess = await analyzeOffline({ questions, answers });
    expect(inWorker).toEqual(inProcess);
    expect(inWorker.questions.length).toBe(11);
    expect(inWorker.themes.length).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toEqual([answers.length * 2, answers.length * 2]);
    expect(progress.every(([done], i) => i === 0 || done >= progress[i - 1][0])).toBe(true);
  }, 60_000);

  /**
   * The synthetic answers as the database gives a report its invites: one invite per linkID, its
   * transcript (each answer after the interviewer's question) and turn_meta as JSON text, in pages of 50.
   * The last invite's answers come after the cutoff and one invite is not completed (no duration).
   */
  const cutoff = Date.parse('2026-06-01T12:00:00Z');
  async function* pagesOfInvites(of = answers): AsyncGenerator<AnswerSourceRow[]> {
    const byLink = new Map<string, typeof answers>();
    for (const a of of) byLink.set(a.linkID, [...(byLink.get(a.linkID) ?? []), a]);
    const rows = [...byLink.entries()].map(([linkID, own], n): AnswerSourceRow => {
      const late = n === byLink.size - 1;
      const at = (k: number) => new Date(cutoff - (late ? -60_000 : 3_600_000) + k * 1000).toISOString();
      const conversation = own.flatMap((a) => [
        { role: 'interviewer', content: a.questionIndex === null ? 'Anything else?' : questions[a.questionIndex].question },
        { role: 'interviewee', content: a.answer },
      ]);
      const turnMeta = own.flatMap((a, k) => [
        { at: at(2 * k), questionIndex: a.questionIndex },
        { at: at(2 * k + 1), questionIndex: null, sentiment: a.sentiment },
      ]);
      const startedOn = new Date(cutoff - 7_200_000 + n * 1000);
      return {
        linkID,
        createdAt: new Date(cutoff - 86_400_000 + n),
        status: n === 3 ? 'started' : 'completed',
        startedOn,
        completedOn: n === 3 ? null : new Date(startedOn.getTime() + 600_000 + n * 7_000),
        language: own[0].language,
        userInfo: null,
        conversation: JSON.stringify(conversation),
        turnMeta: JSON.stringify(turnMeta),
      };
    });
    for (let i = 0; i < rows.length; i += 50) yield rows.slice(i, i + 50);
  }

  it('makes a report\'s answer part from pages of invites in the worker as in this process', async () => {
    const progress: [number, number][] = [];
    const inWorker = await runner().report({ questions, pages: pagesOfInvites(), cutoff, options: { maxThemes: 12, codebook: [] }, productName: 'Acme' }, { yielder: new Yielder(), onProgress: (done, total) => progress.push([done, total]) });
    const inProcess = await runner(join(dir, 'no-such-worker.js')).report({ questions, pages: pagesOfInvites(), cutoff, options: { maxThemes: 12, codebook: [] }, productName: 'Acme' }, { yielder: new Yielder() });
    expect(inWorker).toEqual(inProcess);
    // The late invite's answers are left out; every other answer is analysed, each twice.
    const counted = answers.length - answers.filter((a) => a.linkID === answers.at(-1)!.linkID).length;
    expect(progress.at(-1)).toEqual([counted * 2, counted * 2]);
    expect(inWorker.medianDurationSeconds).toBeGreaterThan(600);
    expect(inWorker.medianAnswerWords).toBeGreaterThan(0);
    expect(inWorker.questions.flatMap((q) => q.quotes).length).toBeGreaterThan(0);
    expect(inWorker.droppedQuotes).toBe(0);
  }, 60_000);

  it('keeps its worker while runs follow one another, and lets it go when none is left', async () => {
    const sut = runner();
    const small = answers.slice(0, 500);
    const upDuring: boolean[] = [];
    const onProgress = () => void upDuring.push(sut.hasWorker);
    // Queued together: the second runs in the worker the first leaves.
    const [first, second] = await Promise.all([
      sut.analyze({ questions, answers: small }, { yielder: new Yielder(), onProgress }),
      sut.analyze({ questions, answers: small }, { yielder: new Yielder(), onProgress }),
    ]);
    expect(second).toEqual(first);
    expect(first).toEqual(await analyzeOffline({ questions, answers: small }));
    expect(upDuring.length).toBeGreaterThan(1);
    expect(new Set(upDuring)).toEqual(new Set([true]));
    expect(sut.hasWorker).toBe(false);
    // A later run starts one again.
    await expect(sut.analyze({ questions, answers: small }, { yielder: new Yielder() })).resolves.toEqual(first);
    expect(sut.hasWorker).toBe(false);
  });

  it.each([
    ['throw', /worker crashed: boom/],
    ['exit', /worker exited \(code 7\) before it finished/],
  ] as const)('rejects a run whose worker crashes (%s), and makes the next run in a fresh worker', async (how, message) => {
    const sut = runner(crashingOnce(how));
    const small = answers.slice(0, 500);
    const crashed = sut.analyze({ questions, answers: small }, { yielder: new Yielder() });
    await expect(crashed).rejects.toThrow(AnalysisWorkerError);
    await expect(crashed).rejects.toThrow(message);
    await expect(sut.analyze({ questions, answers: small }, { yielder: new Yielder() })).resolves.toEqual(await analyzeOffline({ questions, answers: small }));
  });

  it('runs under its configured heap limit, fails a run that needs more saying so, and gives more to a run whose size calls for it', async () => {
    // 40 MB: enough for a worker to start and analyse 500 answers, not 50,000 (about 70 MB).
    const limited = new OfflineAnalysisRunner({ workerFile, heapMb: 40 });
    runners.push(limited);
    const many = syntheticAnswers(50_000, { seed: 3 });
    // A report that does not say its size runs under the configured limit.
    const unsized = limited.report({ questions, pages: pagesOfInvites(many), cutoff, options: { maxThemes: 12, codebook: [] }, productName: 'Acme' }, { yielder: new Yielder() });
    await expect(unsized).rejects.toThrow(AnalysisWorkerError);
    await expect(unsized).rejects.toThrow("the offline analysis ran out of memory: it needs more than its worker's 40 MB heap (REPORT_WORKER_HEAP_MB)");
    // Told its size (the interview's tally), it gets a fresh worker with room for it (heapMbFor).
    const progress: number[] = [];
    const sized = await limited.report(
      { questions, pages: pagesOfInvites(many), cutoff, options: { maxThemes: 12, codebook: [] }, productName: 'Acme', answers: many.length },
      { yielder: new Yielder(), onProgress: (done, total) => progress.push(total - done) },
    );
    expect(sized.questions).toHaveLength(11);
    expect(progress.at(-1)).toBe(0);
    // A small run fits the configured limit.
    const small = answers.slice(0, 500);
    await expect(limited.analyze({ questions, answers: small }, { yielder: new Yielder() })).resolves.toEqual(await analyzeOffline({ questions, answers: small }));
  }, 120_000);

  it('rejects promptly with the reason when the run is aborted mid-analysis, and runs again afterwards', async () => {
    const sut = runner();
    const stop = new AbortController();
    const reason = new Error('the claim was taken over');
    let abortedAt = 0;
    let progressAfterAbort = 0;
    const run = sut.analyze({ questions, answers }, {
      yielder: new Yielder(undefined, stop.signal),
      signal: stop.signal,
      // The first progress comes from the worker in the middle of its analysis: abort then.
      onProgress: () => {
        if (abortedAt) return void progressAfterAbort++;
        abortedAt = Date.now();
        stop.abort(reason);
      },
    });
    await expect(run).rejects.toBe(reason);
    // No progress after the abort (below) is the condition; the time is a wide bound for a busy machine.
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    const small = answers.slice(0, 500);
    await expect(sut.analyze({ questions, answers: small }, { yielder: new Yielder() })).resolves.toEqual(await analyzeOffline({ questions, answers: small }));
    expect(progressAfterAbort).toBe(0);
  }, 30_000);

  it('rejects at once a run whose signal is already aborted', async () => {
    const stop = new AbortController();
    stop.abort(new Error('stopping'));
    await expect(runner().analyze({ questions, answers }, { yielder: new Yielder(), signal: stop.signal })).rejects.toThrow('stopping');
  });

  it('refuses runs once the application shuts down', async () => {
    const sut = runner();
    await sut.analyze({ questions, answers: answers.slice(0, 100) }, { yielder: new Yielder() });
    await sut.onApplicationShutdown();
    await expect(sut.analyze({ questions, answers: answers.slice(0, 100) }, { yielder: new Yielder() })).rejects.toThrow(AnalysisWorkerError);
  });
});
