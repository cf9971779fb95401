/**
 * Insights at scale, the service alone, on the study (study.ts) the dataset seeded. Measured: exportAnswers of all of them (time to first byte, throughput, RSS
 * growth); an offline report on them (time from addOne to completed, RSS growth); and the latency of
 * another route (products/getOne at a steady rate) idle and while a report runs.
 */
import { request } from 'node:http';
import { log, sleep } from './cli';
import type { Measurement } from './measure';
import { runLoad } from './measure';
import { Server, RssSampler, http, rssMb, waitQuiet } from './processes';
import type { ExtraSection } from './report';
import { STUDY_ANSWERS, STUDY_INVITES, STUDY_QUESTIONS } from './study';

export const TARGETS = { reportSeconds: 20, reportRssMb: 300, exportTtfbMs: 500, exportRssMb: 64, latencyRatio: 2 } as const;

export interface ExportRun {
  ttfbMs: number;
  totalMs: number;
  bytes: number;
  rows: number;
  rssGrowthMb: number;
}

export interface ReportRun {
  seconds: number;
  rssGrowthMb: number;
  status: string;
}

export interface InsightsRun {
  exports: ExportRun[];
  reports: ReportRun[];
  idle: Measurement;
  underReport: Measurement;
  loadRate: number;
}

/** exportAnswers (CSV) of the whole study, read as it arrives. */
async function measureExport(server: Server, interviewID: string, token: string): Promise<ExportRun> {
  await waitQuiet(server);
  const before = rssMb(server.child.pid!);
  const sampler = new RssSampler(server.child.pid!);
  const started = performance.now();
  const run = await new Promise<Omit<ExportRun, 'rssGrowthMb'>>((resolve, reject) => {
    let ttfbMs = 0;
    let bytes = 0;
    let lines = 0;
    const req = request(
      { host: '127.0.0.1', port: server.port, path: `/v1/interviews/exportAnswers?interviewID=${encodeURIComponent(interviewID)}&format=csv`, headers: { Authorization: `Bearer ${token}` }, agent: false },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`exportAnswers answered ${res.statusCode}`));
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) ttfbMs = performance.now() - started;
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () => resolve({ ttfbMs, totalMs: performance.now() - started, bytes, rows: lines - 1 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
  const peak = sampler.stop();
  if (run.rows !== STUDY_ANSWERS + STUDY_INVITES) throw new Error(`exportAnswers gave ${run.rows} rows, expected ${STUDY_ANSWERS + STUDY_INVITES}`);
  return { ...run, rssGrowthMb: Math.max(0, peak - before) };
}

/** A report: queued, then polled until it is completed; its time from addOne, and the RSS it took. */
async function measureReport(server: Server, interviewID: string, token: string): Promise<ReportRun> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  await waitQuiet(server);
  const before = rssMb(server.child.pid!);
  const sampler = new RssSampler(server.child.pid!);
  const started = performance.now();
  const queued = await http(server.port, 'POST', '/v1/reports/addOne', headers, JSON.stringify({ interviewID }));
  if (queued.status !== 201) throw new Error(`reports/addOne answered ${queued.status}: ${queued.body.slice(0, 200)}`);
  const { reportID } = (JSON.parse(queued.body) as { result: { reportID: string } }).result;
  for (;;) {
    await sleep(100);
    const reply = await http(server.port, 'GET', `/v1/reports/getOne?reportID=${reportID}`, headers);
    const { status } = (JSON.parse(reply.body) as { result: { status: string } }).result;
    if (status === 'completed' || status === 'failed') {
      const seconds = (performance.now() - started) / 1000;
      const peak = sampler.stop();
      if (status !== 'completed') throw new Error(`the report ${status}`);
      return { seconds, rssGrowthMb: Math.max(0, peak - before), status };
    }
    if (performance.now() - started > 300_000) throw new Error('the report took over 5 minutes');
  }
}

/** products/getOne at a steady rate: the route a team's other clients keep using while a report runs. */
function steadyLoad(server: Server, productID: string, token: string, seconds: number, rate: number): Promise<Measurement> {
  return runLoad(
    server,
    {
      url: `http://127.0.0.1:${server.port}/v1/products/getOne?productID=${encodeURIComponent(productID)}`,
      method: 'GET',
      headers: { Authorization: `Bearer ${token}` },
      connections: 4,
      durationSeconds: seconds,
      warmupSeconds: 1,
      rate,
    },
    'products/getOne at a steady rate',
  );
}

/** The steady load's rate: well under what the service serves, so that latency shows waiting, not saturation. */
export const STEADY_RATE = 200;

/**
 * The export and the report, `rounds` times each, then the latency of products/getOne idle and while a
 * report runs (the load lasts 80% of the report's time alone, so that all of it falls within the run).
 */
export async function measureInsights(server: Server, study: { interviewID: string; productID: string }, token: string, rounds: number): Promise<InsightsRun> {
  const downloads: ExportRun[] = [];
  const reports: ReportRun[] = [];
  for (let round = 1; round <= rounds; round++) {
    downloads.push(await measureExport(server, study.interviewID, token));
    log(`[${round}/${rounds}] exportAnswers of ${STUDY_ANSWERS} answers: first byte ${downloads.at(-1)!.ttfbMs.toFixed(0)} ms, all ${downloads.at(-1)!.totalMs.toFixed(0)} ms, RSS +${downloads.at(-1)!.rssGrowthMb.toFixed(1)} MB`);
    reports.push(await measureReport(server, study.interviewID, token));
    log(`[${round}/${rounds}] report on ${STUDY_ANSWERS} answers: ${reports.at(-1)!.seconds.toFixed(1)} s, RSS +${reports.at(-1)!.rssGrowthMb.toFixed(1)} MB`);
  }
  const seconds = Math.max(3, Math.floor(Math.min(...reports.map((r) => r.seconds)) * 0.8));
  await waitQuiet(server);
  const idle = await steadyLoad(server, study.productID, token, seconds, STEADY_RATE);
  await waitQuiet(server);
  const [underReport] = await Promise.all([
    (async () => {
      // The report starts first: the load's warm-up second falls within it too.
      await sleep(200);
      return steadyLoad(server, study.productID, token, seconds, STEADY_RATE);
    })(),
    measureReport(server, study.interviewID, token),
  ]);
  log(`products/getOne at ${STEADY_RATE} req/s: p99 ${idle.latencyMs.p99.toFixed(2)} ms idle, ${underReport.latencyMs.p99.toFixed(2)} ms while a report runs`);
  return { exports: downloads, reports, idle, underReport, loadRate: STEADY_RATE };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const num = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The report's section and its targets. */
export function insightsSection(run: InsightsRun): ExtraSection {
  const exportTtfb = median(run.exports.map((e) => e.ttfbMs));
  const exportTotal = median(run.exports.map((e) => e.totalMs));
  const exportMb = median(run.exports.map((e) => e.bytes)) / 2 ** 20;
  const exportRss = Math.max(...run.exports.map((e) => e.rssGrowthMb));
  const reportSeconds = median(run.reports.map((r) => r.seconds));
  const reportRss = Math.max(...run.reports.map((r) => r.rssGrowthMb));
  const ratio = run.underReport.latencyMs.p99 / run.idle.latencyMs.p99;
  return {
    title: 'Insights at scale (the service alone)',
    lines: [
      `One interview of ${num(STUDY_INVITES)} completed interviews of ${STUDY_QUESTIONS} questions: ${num(STUDY_ANSWERS)} answers (plus each closing "anything else"), ${run.reports.length} round${run.reports.length > 1 ? 's' : ''} (medians; memory: the highest).`,
      '',
      '| measurement | time | size | throughput | RSS growth (highest) | targets |',
      '|---|--:|--:|--:|--:|---|',
      `| exportAnswers, CSV | first byte ${num(exportTtfb)} ms, all ${num(exportTotal)} ms | ${num(exportMb, 1)} MB | ${num((exportMb * 1000) / exportTotal, 1)} MB/s, ${num(((STUDY_ANSWERS + STUDY_INVITES) * 1000) / exportTotal)} rows/s | ${num(exportRss, 1)} MB | first byte ≤ ${TARGETS.exportTtfbMs} ms, RSS ≤ ${TARGETS.exportRssMb} MB |`,
      `| report, offline analysis (addOne to completed) | ${num(reportSeconds, 1)} s | – | ${num(STUDY_ANSWERS / reportSeconds)} answers/s | ${num(reportRss, 1)} MB | ≤ ${TARGETS.reportSeconds} s, RSS ≤ ${TARGETS.reportRssMb} MB |`,
      '',
      `Latency of products/getOne at a steady ${run.loadRate} req/s (4 connections): p99 ${num(run.idle.latencyMs.p99, 2)} ms idle, ${num(run.underReport.latencyMs.p99, 2)} ms while a report runs (${num(ratio, 2)}×; p50 ${num(run.idle.latencyMs.p50, 2)} → ${num(run.underReport.latencyMs.p50, 2)} ms). Target: p99 at most ${TARGETS.latencyRatio}× idle.`,
      '',
      'RSS growth = the highest VmRSS sampled every 100 ms during the measurement, minus VmRSS just before it.',
    ],
    verdicts: [
      `report on ${num(STUDY_ANSWERS)} answers: ${verdict(reportSeconds <= TARGETS.reportSeconds)}: ${num(reportSeconds, 1)} s (target ≤ ${TARGETS.reportSeconds})`,
      `report RSS growth: ${verdict(reportRss <= TARGETS.reportRssMb)}: ${num(reportRss, 1)} MB (target ≤ ${TARGETS.reportRssMb})`,
      `exportAnswers first byte: ${verdict(exportTtfb <= TARGETS.exportTtfbMs)}: ${num(exportTtfb)} ms (target ≤ ${TARGETS.exportTtfbMs})`,
      `exportAnswers RSS growth: ${verdict(exportRss <= TARGETS.exportRssMb)}: ${num(exportRss, 1)} MB (target ≤ ${TARGETS.exportRssMb})`,
      `products/getOne p99 while a report runs: ${verdict(ratio <= TARGETS.latencyRatio)}: ${num(ratio, 2)}× idle (target ≤ ${TARGETS.latencyRatio})`,
    ],
  };
}
