import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ANSWER_SOURCES_PER_READ } from '../invites/answer-chunks';
import { CodebooksService } from '../codebooks/codebooks.service';
import { InterviewsService } from '../interviews/interviews.service';
import { InvitesRepository } from '../invites/invites.repository';
import type { AnalysisOptions } from './analysis/analysis.types';
import { SENTIMENT_METHOD } from './analysis/sentiment-method';
import { median } from './analysis/stats';
import { Yielder } from './analysis/yielder';
import type { Analyst } from './analyst/analyst';
import { gatherHere, type AnswerInsights } from './report-answers';
import { CodeTally, numberThemes, segmentsOf, tidyCodes, type CodedAnswer, type StoredResult } from './report-codes';
import { inviteCountsOf } from './report-erasure';
import { ReportsRepository } from './reports.repository';

/** How a run goes: progress (answers analysed, of all), and the signal that stops it. */
export interface BuildRun {
  onProgress(done: number, total: number): void;
  signal: AbortSignal;
}

/** A report as made: its result, and its codes (stored apart, in report_codes). */
export interface BuiltReport {
  result: StoredResult;
  codes: CodedAnswer[];
}

const roundOrNull = (value: number | null) => (value === null ? null : Math.round(value));

/**
 * Makes a report's result: the interview's invites counted (as of `asOf`), its answers read (those
 * stored up to `asOf`), the analyst's insights, every quote checked, and every count that follows from
 * the codes counted here from the codes, whoever coded them. Runs in the background (ReportWorker),
 * never on a request's path. The offline analyst takes the pages of invites as the database gives them
 * and does the rest in its worker thread (OfflineAnalysisRunner); for another analyst the answers are
 * gathered here, a page at a time, giving way to the event loop. The analysis is given the report's
 * maxThemes and the interview's codebook as it stands when the run starts.
 */
@Injectable()
export class ReportBuilder {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly interviews: InterviewsService,
    private readonly invites: InvitesRepository,
    private readonly reports: ReportsRepository,
    private readonly codebooks: CodebooksService,
  ) {}

  async build(report: { interviewID: string; maxThemes: number; language?: string | null; includeFlagged?: boolean }, analyst: Analyst, asOf: Date, run: BuildRun): Promise<BuiltReport> {
    const withFlagged = report.includeFlagged ?? false;
    const { interviewID } = report;
    const { interview, productName, productDesc, questions } = await this.interviews.questionsOf(interviewID);
    const asked = new Set(questions.map((q) => q.questionIndex));
    // A codebook question the guidelines no longer ask is left out: its answers have no question to be coded under.
    const codebook = (await this.codebooks.forReport(interviewID)).filter((q) => asked.has(q.questionIndex));
    const options: AnalysisOptions = { maxThemes: report.maxThemes, codebook, ...(report.language ? { language: report.language } : {}) };
    const tally = await this.invites.tally(interviewID, { withFlagged });
    run.onProgress(0, tally.answers);

    const pages = this.invites.answerSources(interviewID, { withPerson: false, withFlagged }).pages(ANSWER_SOURCES_PER_READ);
    const yielder = new Yielder(undefined, run.signal);
    const analysisRun = { yielder, onProgress: (done: number, total: number) => run.onProgress(done, total), signal: run.signal };
    let insights: AnswerInsights;
    if (analyst.report) {
      insights = await analyst.report({ questions, pages, cutoff: asOf.getTime(), options, productName, answers: tally.answers }, analysisRun);
    } else {
      const gathered = await gatherHere(
        pages,
        questions.map((q) => q.question),
        asOf.getTime(),
        analysisRun,
      );
      const context = { productName, productDesc, interviewName: interview.interviewName, ...(options.language ? { language: options.language } : {}) };
      insights = gathered.insights(await analyst.analyze({ questions, answers: gathered.answers, context, options }, analysisRun));
    }
    const figures = await this.reports.figuresAt(this.dataSource.manager, interviewID, asOf);
    const { codes: analysed, ...parts } = insights;
    const result: StoredResult = {
      ...inviteCountsOf(figures),
      ...parts,
      medianDurationSeconds: roundOrNull(median(figures.durations)),
      sentimentMethod: SENTIMENT_METHOD,
      segments: [],
      erased: { invites: 0, quotes: 0 },
    };
    numberThemes(result);
    const codes = tidyCodes(result, analysed);
    if (codes.length > 0) {
      const counts = new CodeTally(result.questions);
      for (const code of codes) {
        counts.add(code);
        if (yielder.due()) await yielder.giveWay();
      }
      counts.applyTo(result);
    }
    result.segments = segmentsOf(await this.reports.segmentedAt(this.dataSource.manager, interviewID, asOf), codes);
    return { result, codes };
  }
}
