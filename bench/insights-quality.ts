/**
 * Insights on public data with human labels, and at scale, through the report's own offline path: the
 * answers go in as pages of invites (transcripts as JSON text, as the database gives them) to
 * OfflineAnalysisRunner.report, whose worker thread parses, gathers, analyses (paced as in production:
 * 10 ms of work, 10 ms of rest) and checks the quotes. No database and no server: what is measured is
 * the analysis a report runs (issue 29's benchmarks, see bench/README.md, "Insights quality").
 *
 *  - banking77 (3,080 customer messages, 77 intents): the answers of one question, maxThemes 30, at
 *    1,000 and 3,080 answers: NMI and ARI of each answer's theme (other counting as one more group)
 *    against the intents, coverage, the number of themes chosen, and ten themes with three answers each;
 *  - yelp_labelled (1,000 sentences, positive or negative): sign agreement of the sentiment an answer
 *    is stored with (a neutral score or none counts as a miss);
 *  - time and RSS growth of a report over 100,000 answers (10,000 interviews of 10 questions, the same
 *    synthetic answers as the insights-at-scale study) and of a question of 20,000 answers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { SentimentIntensityAnalyzer } from 'vader-sentiment';
import { ANSWER_SOURCES_PER_READ } from '../src/invites/answer-chunks';
import type { AnswerSourceRow } from '../src/invites/invites.repository';
import { answerSentiment } from '../src/profiles/sentiment';
import type { AnalysisAnswer, AnalysisQuestion } from '../src/reports/analysis/analysis.types';
import { seededRandom } from '../src/reports/analysis/kmeans';
import { OfflineAnalysisRunner } from '../src/reports/analysis/offline-analysis-runner';
import { SENTIMENT_METHOD } from '../src/reports/analysis/sentiment-method';
import { NEGATIVE_AT_MOST, POSITIVE_AT_LEAST } from '../src/reports/analysis/stats';
import { syntheticAnswers } from '../src/reports/analysis/synthetic-answers';
import { Yielder } from '../src/reports/analysis/yielder';
import type { AnswerInsights } from '../src/reports/report-answers';
import { ROOT, log } from './cli';
import { ari, nmi } from './cluster-metrics';
import { STUDY_ANSWERS, STUDY_INVITES, STUDY_QUESTIONS, studyGuidelines, studyTranscript } from './study';
import { RssSampler, rssMb } from './processes';
import type { ExtraSection } from './report';

/** The public data sets (../shared/benchmarks beside the checkout, or BENCH_DATA). */
const DATA = process.env.BENCH_DATA ?? join(ROOT, '..', 'shared', 'benchmarks');
export const QUALITY_TARGETS = { nmi: 0.55, coverage: 0.9, signAgreement: 0.8, reportSeconds: 20, questionSeconds: 10 } as const;
const BANKING_SIZES = [1000, 3080] as const;
const MAX_THEMES = 30;
/** A neutral product name: a bank's would be left out of the themes' words ("bank", "card"...). */
const PRODUCT = 'Northwind';
const QUESTION_ANSWERS = 20_000;

export interface BankingRun {
  answers: number;
  themes: number;
  nmi: number;
  ari: number;
  coverage: number;
  seconds: number;
  /** The largest ten themes: label, answers coded with it, its commonest intent's share, three of its answers. */
  sample: { theme: string; mentions: number; intent: string; intentShare: number; answers: string[] }[];
}

export interface TimedRun {
  answers: number;
  seconds: number;
  /** CPU time of this process over the run (the worker's included): what the wall time is on a quiet machine, before the worker's rests. */
  cpuSeconds: number;
  rssGrowthMb: number;
  themes: number;
  coverage: number | null;
}

export interface QualityRun {
  banking: BankingRun[];
  yelp: { sentences: number; agreement: number; neutral: number; vaderAgreement: number; method: string };
  report: TimedRun;
  question: TimedRun;
}

/** A completed invite holding the given transcript, as the database gives it to a report. */
function inviteRow(linkID: string, began: number, ended: number, conversation: unknown[], meta: unknown[], language = 'en'): AnswerSourceRow {
  return {
    linkID,
    createdAt: new Date(began),
    status: 'completed',
    startedOn: new Date(began),
    completedOn: new Date(ended),
    language,
    userInfo: null,
    conversation: JSON.stringify(conversation),
    turnMeta: JSON.stringify(meta),
  };
}

/** Invites of one answer each to question 0, the answer's sentiment scored as the room stores it. */
function oneAnswerInvites(texts: readonly string[], question: string): AnswerSourceRow[] {
  const base = Date.UTC(2026, 0, 1);
  return texts.map((text, k) => {
    const began = base + k * 60_000;
    const at = new Date(began).toISOString();
    return inviteRow(
      `bench-${String(k).padStart(6, '0')}`,
      began,
      began + 30_000,
      [{ role: 'system', content: `Consent given ${at}: recorded.` }, { role: 'interviewer', content: question }, { role: 'interviewee', content: text }],
      [{ at, questionIndex: null }, { at, questionIndex: 0 }, { at, questionIndex: null, sentiment: answerSentiment(text, 'en'), sentimentMethod: SENTIMENT_METHOD }],
    );
  });
}

async function* pagesOf(rows: readonly AnswerSourceRow[]): AsyncIterable<AnswerSourceRow[]> {
  for (let from = 0; from < rows.length; from += ANSWER_SOURCES_PER_READ) yield rows.slice(from, from + ANSWER_SOURCES_PER_READ);
}

/** One report's answer part through the runner's worker thread, timed, with the RSS growth of this process (the worker's heap is in it). */
async function reportOf(runner: OfflineAnalysisRunner, rows: readonly AnswerSourceRow[], questions: AnalysisQuestion[], maxThemes: number): Promise<{ insights: AnswerInsights; seconds: number; cpuSeconds: number; rssGrowthMb: number }> {
  const before = rssMb(process.pid);
  const sampler = new RssSampler(process.pid);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const insights = await runner.report(
    { questions, pages: pagesOf(rows), cutoff: Date.now(), options: { maxThemes, codebook: [] }, productName: PRODUCT },
    { yielder: new Yielder() },
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { insights, seconds, cpuSeconds: (used.user + used.system) / 1e6, rssGrowthMb: Math.max(0, sampler.stop() - before) };
}

/** banking77's messages in an order of their own (seeded), so that a smaller study is a fair sample of all the intents. */
function bankingMessages(): { text: string; intent: string }[] {
  const file = join(DATA, 'banking77', 'test.csv');
  const parsed = Papa.parse<{ text: string; category: string }>(readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true });
  const rows = parsed.data.map((r) => ({ text: r.text, intent: r.category }));
  const random = seededRandom(77);
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return rows;
}

async function measureBanking(runner: OfflineAnalysisRunner, messages: { text: string; intent: string }[], size: number): Promise<BankingRun> {
  const chosen = messages.slice(0, size);
  const question = 'What did you want to do?';
  const { insights, seconds } = await reportOf(runner, oneAnswerInvites(chosen.map((m) => m.text), question), [{ questionIndex: 0, question }], MAX_THEMES);
  const [q0] = insights.questions;
  if (insights.codes.length !== size) throw new Error(`banking77: ${insights.codes.length} answers coded of ${size}`);
  // Codes come in reading order: invite k holds message k.
  const groups = insights.codes.map((code) => code.themeIDs[0] ?? 'other');
  const intents = chosen.map((m) => m.intent);
  const sample = q0.themes.slice(0, 10).map((theme) => {
    const members = groups.flatMap((g, k) => (g === theme.themeID ? [k] : []));
    const counts = new Map<string, number>();
    for (const k of members) counts.set(intents[k], (counts.get(intents[k]) ?? 0) + 1);
    const [intent, n] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? ['–', 0];
    return { theme: theme.theme, mentions: theme.mentions, intent, intentShare: members.length ? n / members.length : 0, answers: members.slice(0, 3).map((k) => chosen[k].text) };
  });
  return { answers: size, themes: q0.themes.length, nmi: nmi(intents, groups), ari: ari(intents, groups), coverage: q0.coverage ?? 0, seconds, sample };
}

function measureYelp(): QualityRun['yelp'] {
  const lines = readFileSync(join(DATA, 'sentiment', 'yelp_labelled.txt'), 'utf8').split(/\r?\n/).filter((line) => line.includes('\t'));
  const agrees = (score: number | null, label: string) => score !== null && (label === '1' ? score >= POSITIVE_AT_LEAST : score <= NEGATIVE_AT_MOST);
  let agreed = 0;
  let neutral = 0;
  let vader = 0;
  for (const line of lines) {
    const [text, label] = [line.slice(0, line.lastIndexOf('\t')), line.slice(line.lastIndexOf('\t') + 1).trim()];
    const score = answerSentiment(text, 'en');
    if (agrees(score, label)) agreed++;
    else if (score === null || (score > NEGATIVE_AT_MOST && score < POSITIVE_AT_LEAST)) neutral++;
    if (agrees(SentimentIntensityAnalyzer.polarity_scores(text).compound, label)) vader++;
  }
  return { sentences: lines.length, agreement: agreed / lines.length, neutral, vaderAgreement: vader / lines.length, method: SENTIMENT_METHOD };
}

/** The insights-at-scale study (10,000 interviews of 10 questions), its invites built in memory as seedStudy writes them. */
function studyRows(): AnswerSourceRow[] {
  const answers = syntheticAnswers(STUDY_ANSWERS, { questions: STUDY_QUESTIONS, seed: 7 });
  const questions = studyGuidelines().split('\n').slice(1).map((line) => line.replace(/^\d+\. /, ''));
  return Array.from({ length: STUDY_INVITES }, (_, k) => {
    const t = studyTranscript(k, answers, questions);
    return inviteRow(`study-${String(k).padStart(6, '0')}`, t.began, t.ended, t.conversation, t.meta);
  });
}

function timed(run: { insights: AnswerInsights; seconds: number; cpuSeconds: number; rssGrowthMb: number }, answers: number): TimedRun {
  const [q0] = run.insights.questions;
  return { answers, seconds: run.seconds, cpuSeconds: run.cpuSeconds, rssGrowthMb: run.rssGrowthMb, themes: q0?.themes.length ?? 0, coverage: q0?.coverage ?? null };
}

export async function measureQuality(): Promise<QualityRun> {
  for (const file of [join(DATA, 'banking77', 'test.csv'), join(DATA, 'sentiment', 'yelp_labelled.txt')]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: the insights quality section reads ../shared/benchmarks (or BENCH_DATA)`);
  }
  const runner = new OfflineAnalysisRunner();
  if (runner.workerFile === null) throw new Error('the offline analysis worker is not built: run `npm run build` first');
  try {
    const messages = bankingMessages();
    const banking: BankingRun[] = [];
    for (const size of BANKING_SIZES) {
      banking.push(await measureBanking(runner, messages, size));
      const b = banking.at(-1)!;
      log(`banking77, ${size} answers: ${b.themes} themes, NMI ${b.nmi.toFixed(3)}, ARI ${b.ari.toFixed(3)}, coverage ${b.coverage.toFixed(3)} (${b.seconds.toFixed(1)} s)`);
    }
    const yelp = measureYelp();
    log(`yelp_labelled: sign agreement ${yelp.agreement.toFixed(3)} (VADER as it was used: ${yelp.vaderAgreement.toFixed(3)})`);

    const studyQuestions = studyGuidelines().split('\n').slice(1).map((line, questionIndex) => ({ questionIndex, question: line.replace(/^\d+\. /, '') }));
    const report = timed(await reportOf(runner, studyRows(), studyQuestions, 12), STUDY_ANSWERS);
    log(`a report over ${STUDY_ANSWERS} answers: ${report.seconds.toFixed(1)} s (CPU ${report.cpuSeconds.toFixed(1)} s), RSS +${report.rssGrowthMb.toFixed(0)} MB`);

    const questionTexts = syntheticAnswers(QUESTION_ANSWERS, { questions: 1, seed: 11 }).map((a: AnalysisAnswer) => a.answer);
    const question = timed(await reportOf(runner, oneAnswerInvites(questionTexts, 'What do you think?'), [{ questionIndex: 0, question: 'What do you think?' }], 12), QUESTION_ANSWERS);
    log(`a question of ${QUESTION_ANSWERS} answers: ${question.seconds.toFixed(1)} s (CPU ${question.cpuSeconds.toFixed(1)} s), ${question.themes} themes, coverage ${question.coverage}`);
    return { banking, yelp, report, question };
  } finally {
    await runner.onApplicationShutdown();
  }
}

const num = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

export function qualitySection(run: QualityRun): ExtraSection {
  const full = run.banking.at(-1)!;
  return {
    title: 'Insights quality (public data, through the report\'s offline path)',
    lines: [
      `banking77 (customer messages to a bank, 77 intents labelled by people, CC BY 4.0) as the answers of one question, maxThemes ${MAX_THEMES}; each message one interview; NMI and ARI of the answers' themes against the intents, \`other\` counting as one more group.`,
      '',
      '| answers | themes chosen | NMI | ARI | coverage | time | targets |',
      '|--:|--:|--:|--:|--:|--:|---|',
      ...run.banking.map((b) => `| ${num(b.answers)} | ${b.themes} | ${num(b.nmi, 3)} | ${num(b.ari, 3)} | ${num(b.coverage, 3)} | ${num(b.seconds, 1)} s | NMI ≥ ${QUALITY_TARGETS.nmi}, coverage ≥ ${QUALITY_TARGETS.coverage} |`),
      '',
      `Ten themes of the ${num(full.answers)} (the largest), each with its commonest intent and three of its answers:`,
      '',
      '| theme | answers | commonest intent | three of its answers |',
      '|---|--:|---|---|',
      ...full.sample.map((s) => `| ${cell(s.theme)} | ${s.mentions} | ${s.intent} (${num(s.intentShare * 100)}%) | ${s.answers.map((a) => `“${cell(a)}”`).join('<br>')} |`),
      '',
      `yelp_labelled (1,000 restaurant-review sentences, each clearly positive or negative): sign agreement ${num(run.yelp.agreement, 3)} with ${run.yelp.method} (${run.yelp.neutral} scored neutral or not at all, each a miss); VADER's compound as the service used it before: ${num(run.yelp.vaderAgreement, 3)}.`,
      '',
      'CPU time: user + system time of the process over the run, the worker thread\'s included. The worker rests as long as it works only while this process serves 20 requests a second or more (here it serves none), so on a quiet machine the wall time is about the CPU time; on a busy one, more.',
      '',
      '| at scale, through the worker thread (paced as in production) | time | CPU time | RSS growth (this process, the worker\'s heap included) | themes | targets |',
      '|---|--:|--:|--:|--:|---|',
      `| a report over ${num(run.report.answers)} answers (10,000 interviews of 10 questions, synthetic) | ${num(run.report.seconds, 1)} s | ${num(run.report.cpuSeconds, 1)} s | ${num(run.report.rssGrowthMb)} MB | ${run.report.themes} (question 1) | ≤ ${QUALITY_TARGETS.reportSeconds} s |`,
      `| a question of ${num(run.question.answers)} answers | ${num(run.question.seconds, 1)} s | ${num(run.question.cpuSeconds, 1)} s | ${num(run.question.rssGrowthMb)} MB | ${run.question.themes}, coverage ${run.question.coverage === null ? '–' : num(run.question.coverage, 3)} | ≤ ${QUALITY_TARGETS.questionSeconds} s |`,
    ],
    verdicts: [
      `banking77 ${num(full.answers)} NMI: ${verdict(full.nmi >= QUALITY_TARGETS.nmi)}: ${num(full.nmi, 3)} (target ≥ ${QUALITY_TARGETS.nmi})`,
      `banking77 ${num(full.answers)} coverage: ${verdict(full.coverage >= QUALITY_TARGETS.coverage)}: ${num(full.coverage, 3)} (target ≥ ${QUALITY_TARGETS.coverage})`,
      `yelp sign agreement: ${verdict(run.yelp.agreement >= QUALITY_TARGETS.signAgreement)}: ${num(run.yelp.agreement, 3)} (target ≥ ${QUALITY_TARGETS.signAgreement})`,
      `report over ${num(run.report.answers)} answers (worker): ${verdict(run.report.seconds <= QUALITY_TARGETS.reportSeconds)}: ${num(run.report.seconds, 1)} s (target ≤ ${QUALITY_TARGETS.reportSeconds})`,
      `question of ${num(run.question.answers)} answers (worker): ${verdict(run.question.seconds <= QUALITY_TARGETS.questionSeconds)}: ${num(run.question.seconds, 1)} s (target ≤ ${QUALITY_TARGETS.questionSeconds})`,
    ],
  };
}
