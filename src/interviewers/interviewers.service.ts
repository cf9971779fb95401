import type { ConfigType } from '@nestjs/config';
import { Injectable, Optional, Inject } from '@nestjs/common';
import { InterviewerAgentConfig, interviewersConfig } from './interviewers.config';
import { DefaultInterviewer } from './default-interviewer';
import type { InterviewerDto } from './dto/interviewer.dto';
import type { InterviewerAgent } from './interviewer-agent';
import { BUILT_IN_INTERVIEWER } from './interviewer.limits';
import { UnknownInterviewerException } from './interviewers.errors';
import { OpenAiInterviewer } from './openai-interviewer';
import { Metrics } from '../metrics/metrics.service';

/** A configured agent of its kind; the built-in agent answers the turns it cannot give. */
function createAgent(name: string, config: InterviewerAgentConfig, builtIn: InterviewerAgent, metrics?: Metrics): InterviewerAgent {
  switch (config.kind) {
    case 'openai':
      return new OpenAiInterviewer(name, config, builtIn, (reason) => metrics?.agentFallback(name, reason));
  }
}

/**
 * The interviewer agents of this process, by name: the built-in `default` and one per entry of
 * INTERVIEWER_AGENTS, built once at start-up (agents keep no state between turns).
 */
@Injectable()
export class InterviewersService {
  private readonly agents = new Map<string, InterviewerAgent>();
  /** The agent new interviews get (DEFAULT_INTERVIEWER), and those reset to the default. */
  readonly defaultName: string;

  constructor(@Inject(interviewersConfig.KEY) config: ConfigType<typeof interviewersConfig>, @Optional() metrics?: Metrics) {
    const builtIn = new DefaultInterviewer();
    this.agents.set(BUILT_IN_INTERVIEWER, builtIn);
    for (const [name, agentConfig] of config.agents) this.agents.set(name, createAgent(name, agentConfig, builtIn, metrics));
    this.defaultName = config.defaultInterviewer;
  }

  /**
   * The agent of that name, or undefined: an interview may still name an agent that has since been
   * removed from the configuration, and what to do then is the caller's decision.
   */
  get(name: string): InterviewerAgent | undefined {
    return this.agents.get(name);
  }

  /** Every agent, the built-in one first, then in the configuration's order. */
  list(): InterviewerDto[] {
    return [...this.agents].map(([interviewer, agent]) => ({ interviewer, kind: agent.kind, description: agent.description }));
  }

  /** 400 listing the known agents unless `name` is one of them. */
  assertKnown(name: string): void {
    if (!this.agents.has(name)) throw new UnknownInterviewerException(name, [...this.agents.keys()]);
  }
}
