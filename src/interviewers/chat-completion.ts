import type { OpenAiAgentConfig } from './interviewers.config';
import { readBoundedBody } from '../common/bounded-body';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Why there is no answer, in terms the caller words for its own log or note (never what was sent or received). */
export type ChatFailure =
  | { kind: 'http'; status: number }
  | { kind: 'timeout'; ms: number }
  | { kind: 'unreachable'; code: string | null }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'not-a-completion' }
  | { kind: 'refused' }
  | { kind: 'no-content' };

export type ChatOutcome = { ok: true; content: string; cutOff: boolean } | { ok: false; failure: ChatFailure };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One chat completion on an OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp, LM Studio),
 * through Node's own fetch: `${baseUrl}/chat/completions`, the key only in the Authorization header, no
 * redirects (they would carry the request and its key somewhere nobody configured), the agent's timeout
 * over the whole exchange (a server that sends headers and then stalls is cut off too), the body read up
 * to `responseBytes`. Resolves with the first choice's content, or a failure; rejects only when `stop`
 * is aborted, with its reason. The interviewer agents and the LLM analyst both ask through here.
 */
export async function chatCompletion(
  config: OpenAiAgentConfig,
  request: { messages: readonly ChatMessage[]; response_format: Record<string, unknown> },
  options: { responseBytes: number; stop?: AbortSignal },
): Promise<ChatOutcome> {
  const { stop } = options;
  stop?.throwIfAborted();
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (config.apiKey) headers.Authorization = `Bearer ${config.apiKey.reveal()}`;
  const timeout = AbortSignal.timeout(config.timeoutMs);
  let body: string | null;
  try {
    const response = await fetch(`${config.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: config.model, ...request }),
      signal: stop ? AbortSignal.any([stop, timeout]) : timeout,
      redirect: 'error',
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, failure: { kind: 'http', status: response.status } };
    }
    body = (await readBoundedBody(response, options.responseBytes))?.toString('utf8') ?? null;
  } catch (error) {
    stop?.throwIfAborted();
    return { ok: false, failure: failureOf(error, config.timeoutMs) };
  }
  if (body === null) return { ok: false, failure: { kind: 'too-large', bytes: options.responseBytes } };
  const message = messageOf(body);
  if (message === null) return { ok: false, failure: { kind: 'not-a-completion' } };
  if (message.content === null) return { ok: false, failure: { kind: message.refused ? 'refused' : 'no-content' } };
  return { ok: true, content: message.content, cutOff: message.cutOff };
}

/**
 * choices[0] of a chat completion: its message's content (null when there is none, as with a refusal
 * under structured outputs), whether it is a refusal, and whether the model stopped at its length limit.
 */
function messageOf(body: string): { content: string | null; refused: boolean; cutOff: boolean } | null {
  let completion: unknown;
  try {
    completion = JSON.parse(body);
  } catch {
    return null;
  }
  const choice: unknown = isObject(completion) && Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  const message = isObject(choice) ? choice.message : undefined;
  if (!isObject(message)) return null;
  return {
    content: typeof message.content === 'string' ? message.content : null,
    refused: typeof message.refusal === 'string' && message.refusal !== '',
    cutOff: isObject(choice) && choice.finish_reason === 'length',
  };
}

/** Why a request failed, from its error's name and code only: messages may quote what was sent. */
function failureOf(error: unknown, timeoutMs: number): ChatFailure {
  // By name, not instanceof: fetch's DOMException may come from another realm than this module's Error.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout', ms: timeoutMs };
  const code: unknown = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return { kind: 'unreachable', code: typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : null };
}
