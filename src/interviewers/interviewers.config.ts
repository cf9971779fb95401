import { ConfigError } from '../config/config-error';
import { Env, quote, readJsonVariable } from '../config/env';
import { Secret, checkFields, isObject, readApiKey, readBaseUrl, readWholeNumber } from '../config/server-fields';
import { BUILT_IN_INTERVIEWER, INTERVIEWER_LIMITS, INTERVIEWER_NAME_PATTERN } from './interviewer.limits';
import { featureConfig } from '../config/feature-config';

/** An agent on an OpenAI-compatible chat-completions server (OpenAI, vLLM, Ollama, llama.cpp, LM Studio). */
export interface OpenAiAgentConfig {
  kind: 'openai';
  /** Without a trailing slash; requests go to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  model: string;
  /** Resolved from the variable named by apiKeyEnv; null sends no Authorization header. */
  apiKey: Secret | null;
  timeoutMs: number;
  maxTurns: number;
  description: string | null;
  /**
   * The model's context window in tokens (prompt and answer together): the LLM analyst sends a
   * question's answers in as many requests as they need to fit. Read from the configuration it is always
   * set (CONTEXT_TOKENS.default when absent); a config built by hand may leave it out for the default.
   */
  contextTokens?: number;
}

/**
 * Bounds of an agent's contextTokens. 2,048 is the smallest context that holds the analyst's prompt, a
 * full codebook and its answer with room for answers; 8,192 is what small local models offer.
 * TODO(shared): belongs with INTERVIEWER_LIMITS in interviewer.limits.ts.
 */
export const CONTEXT_TOKENS = { min: 2048, max: 2_000_000, default: 8192 } as const;

/** One entry per kind; a new kind adds its config here. */
export type InterviewerAgentConfig = OpenAiAgentConfig;

/** The interviewer agents' settings (the namespace interviewersConfig): their type is this reader's, as with Nest's registerAs. */
export function readInterviewersConfig(env: Env) {
  const agents: ReadonlyMap<string, InterviewerAgentConfig> = readInterviewerAgents(env);
  return {
    /** The configured agents by name (INTERVIEWER_AGENTS); the built-in `default` is not among them. */
    agents,
    /** Given to new interviews, and to those reset to the default (DEFAULT_INTERVIEWER). */
    defaultInterviewer: readDefaultInterviewer(env, agents),
  } as const;
}

export const interviewersConfig = featureConfig('interviewers', readInterviewersConfig);

const VARIABLE = 'INTERVIEWER_AGENTS';
const FIELDS: Record<InterviewerAgentConfig['kind'], readonly string[]> = {
  openai: ['kind', 'baseUrl', 'model', 'apiKeyEnv', 'timeoutMs', 'maxTurns', 'description', 'contextTokens'],
};
/**
 * INTERVIEWER_AGENTS: a JSON object mapping agent names to their configuration, or `@path/to/file.json`.
 * Unset or blank: no configured agents (the built-in `default` is always there). Any problem is a
 * ConfigError naming the variable, the agent and the field; the API key itself is never quoted.
 */
export function readInterviewerAgents(env: Env): Map<string, InterviewerAgentConfig> {
  const agents = new Map<string, InterviewerAgentConfig>();
  const read = readJsonVariable(env, VARIABLE);
  if (!read) return agents;
  const { where, parsed } = read;
  if (!isObject(parsed)) {
    throw new ConfigError(`${where} must be a JSON object mapping agent names to their configuration, like {"gpt": {"kind": "openai", ...}}`);
  }
  const entries = Object.entries(parsed);
  if (entries.length > INTERVIEWER_LIMITS.agents) {
    throw new ConfigError(`${where} may configure at most ${INTERVIEWER_LIMITS.agents} agents (got ${entries.length})`);
  }
  for (const [name, value] of entries) {
    if (!INTERVIEWER_NAME_PATTERN.test(name)) {
      throw new ConfigError(`${where}: agent name ${quote(name)} must be 1 to ${INTERVIEWER_LIMITS.name} letters, digits, ".", "_" or "-"`);
    }
    if (name === BUILT_IN_INTERVIEWER) {
      throw new ConfigError(`${where}: "${BUILT_IN_INTERVIEWER}" is the built-in agent's name and cannot be configured; choose another name`);
    }
    agents.set(name, readAgent(env, `${where}: agent "${name}"`, value));
  }
  return agents;
}

/** DEFAULT_INTERVIEWER (default `default`): must name the built-in agent or a configured one. */
export function readDefaultInterviewer(env: Env, agents: ReadonlyMap<string, InterviewerAgentConfig>): string {
  const name = env.DEFAULT_INTERVIEWER?.trim() || BUILT_IN_INTERVIEWER;
  if (name !== BUILT_IN_INTERVIEWER && !agents.has(name)) {
    const known = [BUILT_IN_INTERVIEWER, ...agents.keys()].join(', ');
    throw new ConfigError(`DEFAULT_INTERVIEWER must name a known interviewer agent (${known}); got ${quote(name)}`);
  }
  return name;
}

function readAgent(env: Env, where: string, value: unknown): InterviewerAgentConfig {
  if (!isObject(value)) throw new ConfigError(`${where} must be an object like {"kind": "openai", "baseUrl": "...", "model": "..."}`);
  const kinds = Object.keys(FIELDS);
  if (typeof value.kind !== 'string' || !kinds.includes(value.kind)) {
    throw new ConfigError(`${where}: kind must be one of ${kinds.join(', ')} (got ${quote(value.kind)})`);
  }
  const kind = value.kind as InterviewerAgentConfig['kind'];
  checkFields(where, value, FIELDS[kind]);
  return {
    kind,
    baseUrl: readBaseUrl(where, value.baseUrl, 'https://api.openai.com/v1'),
    model: readText(where, 'model', value.model, INTERVIEWER_LIMITS.model, true) as string,
    apiKey: readApiKey(env, where, value.apiKeyEnv),
    timeoutMs: readWholeNumber(where, 'timeoutMs', value.timeoutMs, INTERVIEWER_LIMITS.timeoutMs),
    maxTurns: readWholeNumber(where, 'maxTurns', value.maxTurns, INTERVIEWER_LIMITS.maxTurns),
    description: readText(where, 'description', value.description, INTERVIEWER_LIMITS.description, false),
    contextTokens: readWholeNumber(where, 'contextTokens', value.contextTokens, CONTEXT_TOKENS),
  };
}

function readText(where: string, field: string, value: unknown, max: number, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) throw new ConfigError(`${where}: ${field} is required`);
    return null;
  }
  if (typeof value !== 'string') throw new ConfigError(`${where}: ${field} must be a string`);
  const text = value.trim();
  if (text.length > max || text.includes('\0') || !text.isWellFormed()) {
    throw new ConfigError(`${where}: ${field} must be at most ${max} characters of text`);
  }
  if (text === '') {
    if (required) throw new ConfigError(`${where}: ${field} must not be empty`);
    return null;
  }
  return text;
}
