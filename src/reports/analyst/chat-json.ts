import { ChatFailure, ChatMessage, chatCompletion } from '../../interviewers/chat-completion';
import type { OpenAiAgentConfig } from '../../interviewers/interviewers.config';

export type { ChatMessage };

/** A JSON schema the answer must follow: sent as `response_format: {type: "json_schema", json_schema: {name, strict: true, schema}}`. */
export interface JsonFormat {
  /** Letters, digits, "_" and "-", at most 64 characters. */
  name: string;
  schema: Record<string, unknown>;
}

/** The parsed JSON answer, or why there is none, in general words that fit after "the model's themes are the offline analysis: ". */
export type JsonOutcome = { ok: true; value: unknown } | { ok: false; reason: string };

const failure = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** A failed exchange, worded to read inside a report's note. */
function describe(f: ChatFailure): string {
  switch (f.kind) {
    case 'http':
      return `the model server answered HTTP ${f.status}`;
    case 'timeout':
      return `the model server gave no answer within ${f.ms} ms`;
    case 'unreachable':
      return `the model server could not be reached${f.code ? ` (${f.code})` : ''}`;
    case 'too-large':
      return `the model server's response was over ${f.bytes} bytes`;
    case 'not-a-completion':
      return "the model server's response was not a chat completion";
    case 'refused':
      return 'the model declined to answer';
    case 'no-content':
      return "the model server's response held no answer";
  }
}

/**
 * One chat completion asked for a JSON answer of `format` (structured outputs: `response_format:
 * {type: "json_schema", json_schema: {name, strict: true, schema}}`), through the interviewer agents'
 * chatCompletion and its request hygiene. A failed exchange resolves with a reason that never quotes
 * what was sent or received. Rejects only when `stop` is aborted (the report's run is stopping).
 */
export async function askForJson(
  config: OpenAiAgentConfig,
  messages: readonly ChatMessage[],
  format: JsonFormat,
  options: { responseBytes: number; stop?: AbortSignal },
): Promise<JsonOutcome> {
  const outcome = await chatCompletion(
    config,
    { messages, response_format: { type: 'json_schema', json_schema: { name: format.name, strict: true, schema: format.schema } } },
    options,
  );
  if (!outcome.ok) return failure(describe(outcome.failure));
  try {
    return { ok: true, value: JSON.parse(outcome.content) as unknown };
  } catch {
    return failure(outcome.cutOff ? "the model's answer was cut off at its length limit" : "the model's answer was not valid JSON");
  }
}
