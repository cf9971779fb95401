import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { Secret } from '../config/server-fields';
import { endClientSpan, startClientSpan } from './spans';

/** A server speaking OpenAI's HTTP API (OpenAI, vLLM, Ollama, llama.cpp, LM Studio, speaches, LocalAI) as configured. */
export interface OpenAiServer {
  /** Without a trailing slash, e.g. http://localhost:8000/v1. */
  baseUrl: string;
  /** null sends no Authorization header (a local server without keys). */
  apiKey: Secret | null;
  timeoutMs: number;
}

/** Why a request got no usable response, from what failed and never from what was sent or received. */
export type ServerFailure =
  | { kind: 'http'; status: number }
  | { kind: 'timeout'; ms: number }
  | { kind: 'unreachable'; code: string | null }
  | { kind: 'too-large'; bytes: number };

/** The response body went past the bound given to openAiClient. */
class ResponseTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`the response is over ${bytes} bytes`);
  }
}

/**
 * The official SDK's client for one server, with our rules over its defaults:
 * - no retries: every caller has its own fallback (the built-in interviewer, the offline analysis, a 503
 *   with Retry-After), and a retry would hold a request or a report past its timeout;
 * - the timeout covers the whole exchange: the SDK's own timer runs until a JSON body is parsed (binary
 *   bodies, the speech audio, are bounded by the caller's signal);
 * - no redirects: they would carry the request, and its key, somewhere nobody configured;
 * - no key, no Authorization header: the SDK insists on a key, so it gets a placeholder it never sends;
 * - nothing read from OPENAI_* variables but the ones we cannot switch off (OPENAI_CUSTOM_HEADERS), and
 *   no log lines of its own (they would bypass ours);
 * - at most `responseBytes` of any body: the SDK reads bodies whole (response.text()), so its fetch
 *   counts what arrives and fails the body past the bound, which also cancels the rest of the download.
 * A client is cheap to make (no connection of its own: Node's fetch pools them), so each request gets
 * one with its own bound.
 */
export function openAiClient(server: OpenAiServer, responseBytes: number): OpenAI {
  return new OpenAI({
    baseURL: server.baseUrl,
    apiKey: server.apiKey?.reveal() ?? 'unused',
    defaultHeaders: server.apiKey ? undefined : { Authorization: null },
    organization: null,
    project: null,
    webhookSecret: null,
    adminAPIKey: null,
    timeout: server.timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
    fetchOptions: { redirect: 'error' },
    fetch: boundedFetch(responseBytes),
  });
}

/**
 * fetch bounded to `limit` bytes of body, each request in a client span of its own (startClientSpan)
 * whose trace context goes along in `traceparent`, ended when the response's status is in.
 */
function boundedFetch(limit: number): typeof fetch {
  return async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : input);
    const { span, headers: traced } = startClientSpan(init?.method ?? (input instanceof Request ? input.method : 'GET'), target);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const [name, value] of Object.entries(traced)) headers.set(name, value);
    const response = await fetch(input, { ...init, headers }).catch((error: unknown) => {
      endClientSpan(span, null, serverFailureOf(error, 0)?.kind === 'timeout' ? 'timeout' : 'unreachable');
      throw ownRealm(error);
    });
    endClientSpan(span, response.status);
    if (!response.body) return response;
    let size = 0;
    const declared = Number(response.headers.get('content-length'));
    const counted = new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        if (declared > limit) controller.error(new ResponseTooLarge(limit));
      },
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new ResponseTooLarge(limit));
        else controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counted), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * fetch's abort is a DOMException, which under a VM context (Jest) is no Error of this realm: the SDK would
 * then keep only its JSON (`{}`), losing the name that says it was the timeout.
 */
function ownRealm(error: unknown): unknown {
  if (error instanceof Error || typeof error !== 'object' || error === null) return error;
  const { name, message } = error as { name?: unknown; message?: unknown };
  return Object.assign(new Error(String(message ?? 'fetch failed')), { name: String(name ?? 'Error'), cause: error });
}

/**
 * What failed in a request through openAiClient, from the error's class and code only (its message may
 * quote what was sent); null when the exchange itself went through and what came back is unusable (a
 * JSON body that does not parse, say). A signal the caller passed that aborts counts as the timeout: the
 * callers pass timeouts only, and check their own stop signals first.
 */
export function serverFailureOf(error: unknown, timeoutMs: number): ServerFailure | null {
  const tooLarge = causes(error).find((e): e is ResponseTooLarge => e instanceof ResponseTooLarge);
  if (tooLarge) return { kind: 'too-large', bytes: tooLarge.bytes };
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) return { kind: 'timeout', ms: timeoutMs };
  // By name, not instanceof: fetch's DOMException may come from another realm than this module's Error.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout', ms: timeoutMs };
  if (error instanceof APIConnectionError) {
    const code = causes(error)
      .map((e) => (e as { code?: unknown }).code)
      .find((c): c is string => typeof c === 'string' && /^[A-Z0-9_]{1,40}$/.test(c));
    return { kind: 'unreachable', code: code ?? null };
  }
  if (error instanceof APIError && typeof error.status === 'number') return { kind: 'http', status: error.status };
  return null;
}

/** The error and its causes, a few deep (fetch wraps the socket's error, the SDK wraps fetch's). */
function causes(error: unknown): object[] {
  const chain: object[] = [];
  for (let e = error; typeof e === 'object' && e !== null && chain.length < 4; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}
