import type { AnalysisAnswer, AnalysisQuestion, AnalysisResult } from '../analysis/analysis.types';
import type { OfflineAnalysisRunner } from '../analysis/offline-analysis-runner';
import type { Yielder } from '../analysis/yielder';

/** What a report's run gives an analyst: the interview's questions and answers, and what the interview is about. */
export interface AnalysisInput {
  questions: AnalysisQuestion[];
  answers: AnalysisAnswer[];
  /** For a model's prompt: never the organization, the invites or the interviewees. */
  context: { productName: string; productDesc: string | null; interviewName: string };
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
}

/** The built-in offline analysis: deterministic, no network; run off the event loop by the runner. */
export class OfflineAnalyst implements Analyst {
  constructor(private readonly runner: OfflineAnalysisRunner) {}

  analyze(input: AnalysisInput, run: AnalysisRun): Promise<AnalysisResult> {
    return this.runner.analyze({ questions: input.questions, answers: input.answers }, run);
  }
}
