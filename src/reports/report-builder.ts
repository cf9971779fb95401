import { Injectable } from '@nestjs/common';
import { answerChunks } from '../answers/answer-chunks';
import { InterviewsService } from '../interviews/interviews.service';
import { InvitesRepository } from '../invites/invites.repository';
import type { AnalysisAnswer, AnalysisResult, InviteCounts, Quote, ReportResult } from './analysis/analysis.types';
import { isVerbatimQuote } from './analysis/quotes';
import { median, sentimentSplit } from './analysis/stats';
import { Yielder } from './analysis/yielder';
import type { Analyst } from './analyst/analyst';

/** How a run goes: progress (answers analysed, of all), and the signal that stops it. */
export interface BuildRun {
  onProgress(done: number, total: number): void;
  signal: AbortSignal;
}

/**
 * Invites per read while a report gathers its answers: a read's transcripts are parsed in one go, and
 * at this size that stays around a millisecond, so requests served meanwhile barely wait.
 */
const INVITES_PER_READ = 50;

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
export function verifyQuotes(analysis: AnalysisResult, turns: ReadonlyMap<string, string>): AnalysisResult {
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
 * Makes a report's result: the interview's invites counted, its answers read (those stored up to
 * `asOf`), the analyst's insights, every quote checked. Runs in the background (ReportWorker), never on
 * a request's path; reading is a batch of invites at a time, and the offline analysis runs in a worker
 * thread (OfflineAnalysisRunner).
 */
@Injectable()
export class ReportBuilder {
  constructor(
    private readonly interviews: InterviewsService,
    private readonly invites: InvitesRepository,
  ) {}

  async build(interviewID: string, analyst: Analyst, asOf: Date, run: BuildRun): Promise<ReportResult> {
    const { interview, productName, productDesc, questions } = await this.interviews.questionsOf(interviewID);
    const tally = await this.invites.tally(interviewID);
    run.onProgress(0, tally.answers);

    const answers: AnalysisAnswer[] = [];
    const turns = new Map<string, string>();
    const durations: number[] = [];
    const cutoff = asOf.getTime();
    const yielder = new Yielder(undefined, run.signal);
    const chunks = answerChunks(this.invites.answerSources(interviewID), questions.map((q) => q.question), { invitesPerQuery: INVITES_PER_READ });
    for await (const { rows, sources } of chunks) {
      run.signal.throwIfAborted();
      for (const source of sources) {
        if (source.createdAt.getTime() > cutoff || source.status !== 'completed' || !source.startedOn || !source.completedOn) continue;
        if (source.completedOn.getTime() <= cutoff) durations.push((source.completedOn.getTime() - source.startedOn.getTime()) / 1000);
      }
      for (const row of rows) {
        if (row.at !== null && Date.parse(row.at) > cutoff) continue;
        answers.push({
          linkID: row.linkID,
          turnIndex: row.turnIndex,
          questionIndex: row.questionIndex,
          answer: row.answer,
          words: row.words,
          sentiment: row.sentiment,
          language: row.language,
          followUp: row.followUp,
        });
        turns.set(`${row.linkID}#${row.turnIndex}`, row.answer);
        await yielder.tick();
      }
    }

    const analysis = await analyst.analyze(
      { questions, answers, context: { productName, productDesc, interviewName: interview.interviewName } },
      { yielder, onProgress: (done, total) => run.onProgress(done, total), signal: run.signal },
    );
    const invites: InviteCounts = {
      total: Object.values(tally.byStatus).reduce((a, b) => a + (b ?? 0), 0),
      pending: tally.byStatus.pending ?? 0,
      started: tally.byStatus.started ?? 0,
      completed: tally.byStatus.completed ?? 0,
      abandoned: tally.byStatus.abandoned ?? 0,
      expired: tally.byStatus.expired ?? 0,
      revoked: tally.byStatus.revoked ?? 0,
    };
    return {
      invites,
      completionRate: tally.started === 0 ? null : Math.round((invites.completed / tally.started) * 10_000) / 10_000,
      medianDurationSeconds: roundOrNull(median(durations)),
      medianAnswerWords: median(answers.map((a) => a.words)),
      sentiment: sentimentSplit(answers.map((a) => a.sentiment)),
      ...verifyQuotes(analysis, turns),
    };
  }
}
