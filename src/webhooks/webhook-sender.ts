import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { endClientSpan, startClientSpan } from '../common/spans';
import { WEBHOOK_LIMITS } from './webhooks.limits';
import { refusalOf, refusedTarget, webhookAgent } from './webhook-targets';

export interface SendOutcome {
  /** The endpoint's HTTP status, or null when it gave none. */
  statusCode: number | null;
  /** Why there is no 2xx, when the status does not say it. */
  error: string | null;
  durationMs: number;
  /** Stopped by the caller (shutdown): the attempt did not happen as far as the endpoint's history goes. */
  aborted: boolean;
}

export interface SendOptions {
  allowLocal: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
}

const USER_AGENT = 'interview-research-service-webhooks/1';

function describe(error: NodeJS.ErrnoException): string {
  const refused = refusalOf(error);
  const text = refused ? `refused: ${refused}` : error.code ? `${error.code}: ${error.message}` : error.message;
  return text.slice(0, WEBHOOK_LIMITS.error);
}

/**
 * One POST of a webhook body: no redirects followed (node:http never does; a 3xx is an answer like any
 * other non-2xx), no connection reuse, the target checked again (scheme and IP literal here, the
 * address connected to by the agent), and an answer (status and headers) within
 * `timeoutMs` or the attempt has failed. Never rejects.
 */
export function sendWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendOutcome> {
  const started = performance.now();
  const outcome = (statusCode: number | null, error: string | null, aborted = false): SendOutcome => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
    aborted,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(outcome(null, 'refused: the url is not valid'));
  }
  const refused = refusedTarget(target, options.allowLocal);
  if (refused) return Promise.resolve(outcome(null, `refused: ${refused}`));

  // Its HTTP client span keeps the origin only, and its trace context goes along in `traceparent`.
  const { span, headers: traced } = startClientSpan('POST', target);

  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const settle = (result: SendOutcome) => {
      if (settled) return;
      settled = true;
      endClientSpan(span, result.statusCode, result.aborted ? 'aborted' : 'unreachable');
      resolve(result);
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, {
      method: 'POST',
      // request-filtering-agent: no connection reuse, and the address about to be connected to checked.
      agent: webhookAgent(target, options.allowLocal),
      headers: { ...headers, ...traced, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': USER_AGENT },
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error(`no answer within ${options.timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })), options.timeoutMs);
    const abort = () => {
      settle(outcome(null, 'aborted', true));
      req.destroy();
    };
    options.signal?.addEventListener('abort', abort, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
    };
    req.once('response', (res) => {
      const status = res.statusCode ?? null;
      settle(outcome(status, status !== null && status >= 300 && status < 400 ? 'redirects are not followed' : null));
      // The body is not needed; read it away so the endpoint is not left writing into a full socket, and
      // close the connection if it runs on past the timeout.
      res.on('error', () => undefined);
      res.once('close', done);
      res.resume();
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      done();
      settle(outcome(null, describe(error)));
    });
    req.end(body);
  });
}
