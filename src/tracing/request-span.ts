import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { NO_ROUTE, routeOf } from '../common/logging';
import { serviceTracer } from '../common/spans';

const REDACTED = '(redacted)';

/**
 * A server span per request, made through the OpenTelemetry API: Express middleware that createApp
 * applies first, when tracing is on (nothing at all otherwise). The stock HTTP instrumentation made the
 * same span, but wrapped every request's emitters and computed its attributes whether or not the trace
 * was sampled, and hooked require; a Nest middleware route costs every request Nest's route matching
 * (bench/README.md). Here a request the sampler drops costs a header read, a non-recording span and the
 * context that carries it, so its queries and turns are dropped too.
 *
 * The caller's `traceparent` is followed (parent-based sampling). The span is named by its route
 * template once the request is answered (`GET /v1/products/getOne`; one no route matched keeps the
 * method alone), as the semantic conventions say; the path is the template too and a query string is
 * `(redacted)`: a linkID or shareID never leaves. The client address is Express's (TRUST_PROXY).
 */
export function requestSpan(req: Request, res: Response, next: NextFunction): void {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = serviceTracer.startSpan(req.method, { kind: SpanKind.SERVER }, parent);
  if (span.isRecording()) {
    span.setAttributes({ 'http.request.method': req.method, 'url.scheme': req.protocol, 'network.protocol.version': req.httpVersion });
    if (req.ip) span.setAttribute('client.address', req.ip);
    // 'close' comes after 'finish' when the answer was written, and alone when the client went away first.
    res.once('close', () => {
      const route = routeOf(req);
      if (route !== NO_ROUTE) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('url.path', route);
      if (req.originalUrl.includes('?')) span.setAttribute('url.query', REDACTED);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (!res.writableFinished) span.setAttributes({ 'error.type': 'aborted' });
      if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
  }
  context.with(trace.setSpan(parent, span), next);
}
