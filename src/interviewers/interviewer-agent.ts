import type { ConversationRole } from '../domain/invite-status';

/** The kinds of agent there are: `builtin` is the `default` agent; the others are configured. */
export const INTERVIEWER_KINDS = ['builtin', 'openai'] as const;
export type InterviewerKind = (typeof INTERVIEWER_KINDS)[number];

/** One entry of an invite's transcript, as the interview room stores it. */
export interface Turn {
  role: ConversationRole;
  content: string;
}

/** What an agent is told about the interview: nothing of the organization, the invite or the email. */
export interface InterviewBrief {
  productName: string;
  productDesc: string | null;
  interviewName: string;
  /** The research team's instructions; only the questions in them may be shown to the interviewee. */
  guidelines: string | null;
  /**
   * The guidelines in `language` when the team translated them (interviews' `translations`), else null:
   * its questions are asked instead of the guidelines' (question k is question k).
   */
  translation?: string | null;
  /** Full name from the start form. */
  intervieweeName: string | null;
  /** The language the interview is held in (a tag of src/languages): the agent's own phrases are in it. */
  language: string;
}

export interface AgentTurn {
  message: string;
  /** True on the agent's last turn: the interview is over. */
  done: boolean;
  /**
   * The question of interviewQuestions() this turn asks or follows up (0-based); null for greetings,
   * closings and turns the agent did not attribute.
   */
  questionIndex: number | null;
}

/** The profile details an agent may fill at completion (see ProfileDetailsDto for their bounds). */
export interface InterviewSummary {
  background: string | null;
  productAlignment: string | null;
  key_values: string[];
  interests: string[];
}

/**
 * An interviewer. It keeps no state between calls: everything it needs is in the brief and the
 * transcript, so any process can take the next turn of any interview.
 */
export interface InterviewerAgent {
  readonly kind: InterviewerKind;
  /** What GET /v1/interviewers/getList shows about it. */
  readonly description: string | null;
  /**
   * The next interviewer turn for the transcript so far (system turns included; on the first call
   * there is no interviewee turn yet: the opening). Never rejects: an agent that cannot reach its
   * model answers with a turn of the built-in agent.
   */
  next(brief: InterviewBrief, transcript: readonly Turn[]): Promise<AgentTurn>;
  /** Profile details at completion, or null (the built-in agent leaves them empty rather than invent). */
  summarize(brief: InterviewBrief, transcript: readonly Turn[]): Promise<InterviewSummary | null>;
}
