import { Attributes, Span, SpanStatusCode, trace } from '@opentelemetry/api';

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
