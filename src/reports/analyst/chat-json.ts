import type { OpenAiAgentConfig } from '../../interviewers/interviewers.config';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A JSON schema the answer must follow: sent as `response_format: {type: "json_schema", json_schema: {name, strict: true, schema}}`. */
export interface JsonFormat {
  /** Letters, digits, "_" and "-", at most 64 characters. */
  name: string;
  schema: Record<string, unknown>;
}

/** The parsed JSON answer, or why there is none, in general words that fit after "the model's themes are the offline analysis: ". */
export type JsonOutcome = { ok: true; value: unknown } | { ok: false; reason: string };

const failure = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One chat completion asked for a JSON answer of `format`, with the interviewer agent's request
 * hygiene: `${baseUrl}/chat/completions`, the key only in the Authorization header, no redirects (they
 * would carry the key somewhere nobody configured), the agent's timeout over the whole exchange, the body
 * read up to `responseBytes`. A failed exchange resolves with a reason that never quotes what was sent
 * or received. Rejects only when `stop` is aborted (the report's run is stopping), with its reason.
 */
export async function askForJson(
  config: OpenAiAgentConfig,
  messages: readonly ChatMessage[],
  format: JsonFormat,
  options: { responseBytes: number; stop?: AbortSignal },
): Promise<JsonOutcome> {
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
      body: JSON.stringify({
        model: config.model,
        messages,
        response_format: { type: 'json_schema', json_schema: { name: format.name, strict: true, schema: format.schema } },
      }),
      // Covers the body too: a server that sends its headers and then stalls is cut off as well.
      signal: stop ? AbortSignal.any([stop, timeout]) : timeout,
      redirect: 'error',
    });
    if (!response.ok) {
      await response.body?.cancel();
      return failure(`the model server answered HTTP ${response.status}`);
    }
    body = await readBounded(response, options.responseBytes);
  } catch (error) {
    stop?.throwIfAborted();
    return failure(describeFailure(error, config.timeoutMs));
  }
  if (body === null) return failure(`the model server's response was over ${options.responseBytes} bytes`);
  const message = messageOf(body);
  if (message === null) return failure("the model server's response was not a chat completion");
  if (message.content === null) return failure(message.refused ? 'the model declined to answer' : "the model server's response held no answer");
  let value: unknown;
  try {
    value = JSON.parse(message.content);
  } catch {
    return failure(message.cutOff ? "the model's answer was cut off at its length limit" : "the model's answer was not valid JSON");
  }
  return { ok: true, value };
}

/**
 * choices[0] of a chat completion: its message's content (null when there is none, as with a refusal
 * under structured outputs), whether it is a refusal, and whether the model stopped at its length limit.
 * TODO(shared): the interviewer's contentOf in openai-interviewer.ts does the same for content alone.
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

/**
 * Reads at most `limit` bytes of the body; null when there are more.
 * TODO(shared): the same as readBounded in openai-interviewer.ts (not exported there).
 */
async function readBounded(response: Response, limit: number): Promise<string | null> {
  if (Number(response.headers.get('content-length')) > limit) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Why a request failed, from its error's name and code only: messages may quote what was sent.
 * TODO(shared): describeFailure in openai-interviewer.ts, worded here to read inside a report's note.
 */
function describeFailure(error: unknown, timeoutMs: number): string {
  // By name, not instanceof: fetch's DOMException may come from another realm than this module's Error.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `the model server gave no answer within ${timeoutMs} ms`;
  const code: unknown = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return `the model server could not be reached${typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : ''}`;
}
