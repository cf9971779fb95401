import { chunkOf } from '../answers/answer-chunks';
import type { AnswerSourceRow } from '../invites/invites.repository';
import type { AnalysisAnswer, AnalysisResult, Quote, ReportResult } from './analysis/analysis.types';
import { isVerbatimQuote } from './analysis/quotes';
import { SENTIMENT_METHOD } from './analysis/sentiment-method';
import { median, sentimentSplit } from './analysis/stats';
import type { Yielder } from './analysis/yielder';

/** The parts of a report made of its answers and their analysis (the invite counts are the builder's). */
export type AnswerInsights = Omit<ReportResult, 'invites' | 'completionRate'>;

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
  private readonly turns = new Map<string, string>();
  private readonly durations: number[] = [];

  constructor(
    private readonly questions: readonly string[],
    private readonly cutoff: number,
  ) {}

  /** A page of invites as the database gives them (transcripts as JSON text). */
  async add(page: readonly AnswerSourceRow[], yielder: Yielder): Promise<void> {
    const { rows, sources } = chunkOf(page, this.questions);
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
      this.turns.set(`${row.linkID}#${row.turnIndex}`, row.answer);
      if (yielder.due()) await yielder.giveWay();
    }
  }

  /** The report's parts from these answers and an analyst's analysis of them, every quote checked. */
  insights(analysis: AnalysisResult): AnswerInsights {
    return {
      medianDurationSeconds: roundOrNull(median(this.durations)),
      medianAnswerWords: median(this.answers.map((a) => a.words)),
      sentiment: sentimentSplit(this.answers.map((a) => a.sentiment)),
      sentimentMethod: SENTIMENT_METHOD,
      ...verifyQuotes(analysis, this.turns),
    };
  }
}
