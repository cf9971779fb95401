import { INTERVIEW_LIMITS } from '../domain/interview.limits';

/** Bounds of the interviewer agents: their configuration, what a model may answer, and the built-in script. */
export const INTERVIEWER_LIMITS = {
  /** An agent's name is what interviews.interviewer stores. */
  name: INTERVIEW_LIMITS.interviewer,
  /** Configured agents (INTERVIEWER_AGENTS), the built-in one not counted. */
  agents: 100,
  description: 500,
  model: 200,
  /** One interviewer turn, as a model may write it. */
  message: 4000,
  /** A chat-completions response body larger than this is not read to the end. */
  responseBytes: 1024 * 1024,
  timeoutMs: { min: 1000, max: 120_000, default: 20_000 },
  /** Interviewer turns per interview, the closing thank-you included. */
  maxTurns: { min: 2, max: 200, default: 30 },
  /** The built-in agent probes an answer of fewer words than this, once per question. */
  probeBelowWords: 8,
} as const;

/** Agent names: what fits the interviews.interviewer column, in characters safe in logs and URLs. */
export const INTERVIEWER_NAME_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

/** The built-in agent's name; it cannot be configured. */
export const BUILT_IN_INTERVIEWER = 'default';
