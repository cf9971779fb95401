import { chunkOf } from '../invites/answer-chunks';
import type { AnswerSourceRow } from '../invites/invites.repository';
import type { AnalysisAnswer, AnalysisResult, AnswerCode, Quote, ReportResult } from './analysis/analysis.types';
import { isVerbatimQuote } from './analysis/quotes';
import { SENTIMENT_METHOD } from './analysis/sentiment-method';
import { median, sentimentSplit } from './analysis/stats';
import type { Yielder } from './analysis/yielder';
import type { CodedAnswer } from './report-codes';

/**
 * The parts of a report made of its answers and their analysis (the invite counts and the sentiment
 * method are the builder's); each code comes with what the report keeps of its answer.
 */
export type AnswerInsights = Omit<ReportResult, 'invites' | 'completionRate' | 'codes' | 'sentimentMethod' | 'segments'> & { codes: CodedAnswer[] };

/** All the pages' answers gathered in this thread, giving way through `yielder`; stops when `signal` aborts. */
export async function gatherHere(
  pages: AsyncIterable<AnswerSourceRow[]>,
  questions: readonly string[],
  cutoff: number,
  run: { yielder: Yielder; signal?: AbortSignal },
): Promise<ReportAnswers> {
  const gathered = new ReportAnswers(questions, cutoff);
  for await (const rows of pages) {
    run.signal?.throwIfAborted();
    await gathered.add(rows, run.yielder);
  }
  return gathered;
}

const roundOrNull = (value: number | null) => (value === null ? null : Math.round(value));

/** Keeps the quotes that are verbatim in the turn they cite; answers how many it dropped. */
function keepVerbatim(quotes: Quote[], turns: ReadonlyMap<string, string>): { quotes: Quote[]; dropped: number } {
  const kept = quotes.filter((q) => isVerbatimQuote(q, { role: 'interviewee', content: turns.get(`${q.linkID}#${q.turnIndex}`) ?? '' }));
  return { quotes: kept, dropped: quotes.length - kept.length };
}

/**
 * The quote check every report passes before it is stored: a quote that is not a verbatim substring (of
 * at least three words) of the interviewee turn it cites is dropped and counted, whoever wrote it.
 */
function verifyQuotes(analysis: AnalysisResult, turns: ReadonlyMap<string, string>): AnalysisResult {
  let dropped = 0;
  const check = (quotes: Quote[]) => {
    const kept = keepVerbatim(quotes, turns);
    dropped += kept.dropped;
    return kept.quotes;
  };
  const themes = (list: AnalysisResult['themes']) => list.map((theme) => ({ ...theme, quotes: check(theme.quotes) }));
  const questions = analysis.questions.map((q) => ({ ...q, themes: themes(q.themes), quotes: check(q.quotes) }));
  const across = themes(analysis.themes);
  return { ...analysis, questions, themes: across, droppedQuotes: analysis.droppedQuotes + dropped };
}

/**
 * A report's answers as it reads them, page by page: those stored up to its cutoff (`asOf`), the turns
 * its quotes may cite, and how long each completed interview took. The same code runs in the service's
 * process and in the analysis worker thread (OfflineAnalysisRunner.report).
 */
export class ReportAnswers {
  readonly answers: AnalysisAnswer[] = [];
  private readonly durations: number[] = [];
  /** Answers read with a score stored by an earlier method than SENTIMENT_METHOD. */
  private earlierScores = 0;

  constructor(
    private readonly questions: readonly string[],
    private readonly cutoff: number,
  ) {}

  /** A page of invites as the database gives them (transcripts as JSON text). */
  async add(page: readonly AnswerSourceRow[], yielder: Yielder): Promise<void> {
    const { rows, sources } = chunkOf(page, this.questions);
    const metaOf = new Map(sources.map((source) => [source.linkID, source.turnMeta]));
    for (const source of sources) {
      if (source.createdAt.getTime() > this.cutoff || source.status !== 'completed' || !source.startedOn || !source.completedOn) continue;
      if (source.completedOn.getTime() <= this.cutoff) this.durations.push((source.completedOn.getTime() - source.startedOn.getTime()) / 1000);
    }
    for (const row of rows) {
      if (row.at !== null && Date.parse(row.at) > this.cutoff) continue;
      this.answers.push({
        linkID: row.linkID,
        turnIndex: row.turnIndex,
        questionIndex: row.questionIndex,
        answer: row.answer,
        words: row.words,
        sentiment: row.sentiment,
        language: row.language,
        followUp: row.followUp,
      });
      const meta = metaOf.get(row.linkID)?.[row.turnIndex];
      if (meta?.sentiment !== undefined && meta.sentimentMethod !== SENTIMENT_METHOD) this.earlierScores++;
      if (yielder.due()) await yielder.giveWay();
    }
  }

  /**
   * The report's parts from these answers and an analyst's analysis of them, every quote checked. An
   * answer's sentiment is the score stored with it: those stored before SENTIMENT_METHOD keep their
   * earlier method's score, and a note says how many. Scoring them again here was measured at about
   * 40% of a 100,000-answer report's time (4 s of CPU of 10), over the 20% this was allowed.
   */
  insights(analysis: AnalysisResult): AnswerInsights {
    const checked = verifyQuotes(analysis, this.quotedTurns(analysis));
    const n = this.earlierScores;
    const note = `${n} ${n === 1 ? 'answer was' : 'answers were'} scored for sentiment when stored, by an earlier method than ${SENTIMENT_METHOD}: ${n === 1 ? 'its score is' : 'their scores are'} that method's.`;
    return {
      medianDurationSeconds: roundOrNull(median(this.durations)),
      medianAnswerWords: median(this.answers.map((a) => a.words)),
      sentiment: sentimentSplit(this.answers.map((a) => a.sentiment)),
      ...checked,
      notes: n > 0 ? [...checked.notes, note] : checked.notes,
      codes: this.coded(analysis.codes),
    };
  }

  /**
   * The turns the analysis quotes (`linkID#turnIndex` → the answer), found among the answers read: a
   * report quotes some hundreds of a study's answers, so only those are keyed.
   */
  private quotedTurns(analysis: AnalysisResult): Map<string, string> {
    const quoted = new Set<string>();
    const links = new Set<string>();
    const note = (quotes: readonly Quote[]) => quotes.forEach((q) => (quoted.add(`${q.linkID}#${q.turnIndex}`), links.add(q.linkID)));
    for (const question of analysis.questions) [question.quotes, ...question.themes.map((t) => t.quotes)].forEach(note);
    for (const theme of analysis.themes) note(theme.quotes);
    const turns = new Map<string, string>();
    for (const a of this.answers) {
      if (!links.has(a.linkID)) continue;
      const key = `${a.linkID}#${a.turnIndex}`;
      if (quoted.has(key)) turns.set(key, a.answer);
    }
    return turns;
  }

  /**
   * Each code with its answer, matched by invite and turn. An analysis that did not code every answer
   * it read (one made before answers were coded) gives none: its counts stay its own. The offline
   * analysis codes the answers in the order given, so each code is first looked for at its own place.
   */
  private coded(codes: readonly AnswerCode[]): CodedAnswer[] {
    if (codes.length !== this.answers.length) return [];
    let byTurn: Map<string, AnalysisAnswer> | undefined;
    const out: CodedAnswer[] = [];
    for (const [i, code] of codes.entries()) {
      let answer: AnalysisAnswer | undefined = this.answers[i];
      if (answer.linkID !== code.linkID || answer.turnIndex !== code.turnIndex) {
        byTurn ??= new Map(this.answers.map((a) => [`${a.linkID}#${a.turnIndex}`, a]));
        answer = byTurn.get(`${code.linkID}#${code.turnIndex}`);
      }
      if (!answer) return [];
      out.push({ ...code, answer: answer.answer, words: answer.words, sentiment: answer.sentiment });
    }
    return out;
  }
}
