import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { OpenAiAgentConfig } from './interviewers.config';
import { ServerFailure, openAiClient, serverFailureOf } from '../common/openai-compatible';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Why there is no answer, in terms the caller words for its own log or note (never what was sent or received). */
export type ChatFailure = ServerFailure | { kind: 'not-a-completion' } | { kind: 'refused' } | { kind: 'no-content' };

export type ChatOutcome = { ok: true; content: string; cutOff: boolean } | { ok: false; failure: ChatFailure };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One chat completion on an OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp, LM Studio),
 * through the official SDK (`POST ${baseUrl}/chat/completions`) held to openAiClient's rules: no retries,
 * no redirects, the agent's timeout over the whole exchange, the body read up to `responseBytes`.
 * Resolves with the first choice's content, or a failure; rejects only when `stop` is aborted, with its
 * reason. The interviewer agents and the LLM analyst both ask through here.
 */
export async function chatCompletion(
  config: OpenAiAgentConfig,
  request: { messages: readonly ChatMessage[]; response_format: ChatCompletionCreateParamsNonStreaming['response_format'] },
  options: { responseBytes: number; stop?: AbortSignal },
): Promise<ChatOutcome> {
  const { stop } = options;
  stop?.throwIfAborted();
  // Not the SDK's ChatCompletion type: that is what OpenAI sends; other servers' bodies are checked by messageOf.
  let completion: unknown;
  try {
    completion = await openAiClient(config, options.responseBytes).chat.completions.create(
      { model: config.model, messages: [...request.messages], response_format: request.response_format },
      { signal: stop },
    );
  } catch (error) {
    stop?.throwIfAborted();
    return { ok: false, failure: serverFailureOf(error, config.timeoutMs) ?? { kind: 'not-a-completion' } };
  }
  const message = messageOf(completion);
  if (message === null) return { ok: false, failure: { kind: 'not-a-completion' } };
  if (message.content === null) return { ok: false, failure: { kind: message.refused ? 'refused' : 'no-content' } };
  return { ok: true, content: message.content, cutOff: message.cutOff };
}

/**
 * choices[0] of a chat completion: its message's content (null when there is none, as with a refusal
 * under structured outputs), whether it is a refusal, and whether the model stopped at its length limit.
 */
function messageOf(body: unknown): { content: string | null; refused: boolean; cutOff: boolean } | null {
  let completion = body;
  // The SDK parses a body it is told is JSON, and hands any other over as text: servers that leave out the type.
  if (typeof body === 'string') {
    try {
      completion = JSON.parse(body);
    } catch {
      return null;
    }
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
