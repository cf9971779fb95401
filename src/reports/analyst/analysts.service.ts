import type { ConfigType } from '@nestjs/config';
import { Injectable, Inject } from '@nestjs/common';
import { interviewersConfig } from '../../interviewers/interviewers.config';
import { OfflineAnalysisRunner } from '../analysis/offline-analysis-runner';
import { UnknownAnalystException } from '../reports.errors';
import { Analyst, OfflineAnalyst } from './analyst';
import { LlmAnalyst } from './llm-analyst';

/**
 * The analysts a report may name: the built-in offline analysis (no name), or an `openai` agent of
 * INTERVIEWER_AGENTS, whose model then codes the themes.
 */
@Injectable()
export class AnalystsService {
  private readonly offline: OfflineAnalyst;

  constructor(
    @Inject(interviewersConfig.KEY) private readonly interviewers: ConfigType<typeof interviewersConfig>,
    private readonly runner: OfflineAnalysisRunner,
  ) {
    this.offline = new OfflineAnalyst(runner);
  }

  /** The names a report may give as its analyst. */
  names(): string[] {
    return [...this.interviewers.agents.entries()].filter(([, agent]) => agent.kind === 'openai').map(([name]) => name);
  }

  /** 400 unless the name is one of names() (null: the offline analysis). */
  assertKnown(name: string | null): void {
    if (name !== null && !this.names().includes(name)) throw new UnknownAnalystException(name, this.names());
  }

  /**
   * The analyst for a report. An agent removed from INTERVIEWER_AGENTS since the report was queued is
   * analysed offline (the result's notes say so).
   */
  get(name: string | null): { analyst: Analyst; note?: string } {
    if (name === null) return { analyst: this.offline };
    const config = this.interviewers.agents.get(name);
    if (config?.kind !== 'openai') return { analyst: this.offline, note: `The analyst "${name}" is no longer configured: this report is the built-in offline analysis.` };
    return { analyst: new LlmAnalyst(name, config, { offline: this.runner }) };
  }
}
