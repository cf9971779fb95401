import { Injectable } from '@nestjs/common';
import { ANSWER_SOURCES_PER_READ } from '../answers/answer-chunks';
import { InterviewsService } from '../interviews/interviews.service';
import { InvitesRepository } from '../invites/invites.repository';
import type { InviteCounts, ReportResult } from './analysis/analysis.types';
import { DEFAULT_ANALYSIS_OPTIONS } from './analysis/offline-analysis';
import { Yielder } from './analysis/yielder';
import type { Analyst } from './analyst/analyst';
import { gatherHere, type AnswerInsights } from './report-answers';

/** How a run goes: progress (answers analysed, of all), and the signal that stops it. */
export interface BuildRun {
  onProgress(done: number, total: number): void;
  signal: AbortSignal;
}

/**
 * Makes a report's result: the interview's invites counted, its answers read (those stored up to
 * `asOf`), the analyst's insights, every quote checked. Runs in the background (ReportWorker), never on
 * a request's path. The offline analyst takes the pages of invites as the database gives them and does
 * the rest in its worker thread (OfflineAnalysisRunner); for another analyst the answers are gathered
 * here, a page at a time, giving way to the event loop.
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

    const pages = this.invites.answerSources(interviewID, { withPerson: false }).pages(ANSWER_SOURCES_PER_READ);
    const yielder = new Yielder(undefined, run.signal);
    const analysisRun = { yielder, onProgress: (done: number, total: number) => run.onProgress(done, total), signal: run.signal };
    let insights: AnswerInsights;
    if (analyst.report) {
      insights = await analyst.report({ questions, pages, cutoff: asOf.getTime(), options: DEFAULT_ANALYSIS_OPTIONS, productName }, analysisRun);
    } else {
      const gathered = await gatherHere(
        pages,
        questions.map((q) => q.question),
        asOf.getTime(),
        analysisRun,
      );
      const context = { productName, productDesc, interviewName: interview.interviewName };
      insights = gathered.insights(await analyst.analyze({ questions, answers: gathered.answers, context, options: DEFAULT_ANALYSIS_OPTIONS }, analysisRun));
    }
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
      ...insights,
    };
  }
}
