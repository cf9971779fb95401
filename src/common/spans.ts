import { Attributes, Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';

/** The service's own tracer: without OTEL_EXPORTER_OTLP_ENDPOINT the API's no-op one, which costs nearly nothing. */
export const serviceTracer = trace.getTracer('interview-research-service');

/**
 * Runs `work` in a span of its own (a child of the active one; `root` for background work, which may
 * have been woken inside a request that has nothing to wait for), ended
 * when it settles; a rejection marks the span as an error with the error's class, never its message
 * (which may quote input). Attributes must hold nothing personal: names of agents, event types, statuses.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>, options: { root?: boolean } = {}): Promise<T> {
  return serviceTracer.startActiveSpan(name, { attributes, root: options.root }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', error instanceof Error ? error.constructor.name : typeof error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** An outgoing HTTP request's span, and the trace-context headers (`traceparent`) that carry it to the server. */
export interface ClientSpan {
  span: Span;
  headers: Record<string, string>;
}

/**
 * Starts the client span of an HTTP request the service sends (a webhook delivery, a model or speech
 * server's request), a child of the active span, through the API rather than the stock HTTP and undici
 * instrumentations: those hook require, and every query paid for the hook (bench/README.md). The URL
 * keeps its origin only: a webhook's path or query may hold a secret, a model server's a key.
 */
export function startClientSpan(method: string, target: URL): ClientSpan {
  const span = serviceTracer.startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': method,
      'url.full': target.origin,
      'server.address': target.hostname,
      'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
    },
  });
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), headers);
  return { span, headers };
}

/**
 * Ends a client span with the response's status, or without one (`failure`: why no response came,
 * a word such as `unreachable`, `timeout`, `aborted`); a status of 400 or more, or none, is an error.
 */
export function endClientSpan(span: Span, statusCode: number | null, failure = 'unreachable'): void {
  if (statusCode !== null) span.setAttribute('http.response.status_code', statusCode);
  if (statusCode === null || statusCode >= 400) {
    span.setAttribute('error.type', statusCode === null ? failure : String(statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
