import type { AnalysisAnswer, AnalysisOptions, AnalysisQuestion, AnalysisResult } from '../analysis/analysis.types';
import type { OfflineAnalysisRunner, ReportInput } from '../analysis/offline-analysis-runner';
import type { Yielder } from '../analysis/yielder';
import type { AnswerInsights } from '../report-answers';

/** What a report's run gives an analyst: the interview's questions and answers, and what the interview is about. */
export interface AnalysisInput {
  questions: AnalysisQuestion[];
  answers: AnalysisAnswer[];
  /** For a model's prompt: never the organization, the invites or the interviewees. */
  context: {
    productName: string;
    productDesc: string | null;
    interviewName: string;
    /** The report's language (addOne's language): a model writes in it and codes the others' answers in translation. Absent: English. */
    language?: string;
  };
  options: AnalysisOptions;
}

/** How a run goes: the event loop is shared with requests (yield), progress is shown, and the run may be stopped. */
export interface AnalysisRun {
  yielder: Yielder;
  /** In whatever unit the analyst counts (answers analysed); `total` may be set once known. */
  onProgress?: (done: number, total: number) => void;
  /** Aborted when the run stops (its instance is shutting down, or its claim was lost). */
  signal?: AbortSignal;
}

/**
 * Makes the insight parts of a report (per-question themes, keyphrases, quotes; themes across the
 * interview). The report's run counts invites, durations and the overall sentiment itself, and checks
 * every quote an analyst returns before anything is stored.
 */
export interface Analyst {
  analyze(input: AnalysisInput, run: AnalysisRun): Promise<AnalysisResult>;
  /**
   * Optional: the whole of a report's answer part from the pages of invites as the database gives them
   * (the answers read up to `cutoff`, analysed, quotes checked), for an analyst that reads them itself.
   */
  report?(input: ReportInput, run: AnalysisRun): Promise<AnswerInsights>;
}

/**
 * The built-in offline analysis: deterministic, no network. A report's answers are read, parsed,
 * analysed and checked in the runner's worker thread, so that neither the work nor its memory is the
 * request threads' (the service's event loop only fetches pages and hands them over).
 */
export class OfflineAnalyst implements Analyst {
  constructor(private readonly runner: OfflineAnalysisRunner) {}

  analyze(input: AnalysisInput, run: AnalysisRun): Promise<AnalysisResult> {
    return this.runner.analyze({ questions: input.questions, answers: input.answers, options: input.options, productName: input.context.productName }, run);
  }

  report(input: ReportInput, run: AnalysisRun): Promise<AnswerInsights> {
    return this.runner.report(input, run);
  }
}
