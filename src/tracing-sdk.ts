// Loaded by tracing.ts only when tracing is on: the SDK and its instrumentations take half a second to load.
import { ClientRequest, type IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MySQL2Instrumentation } from '@opentelemetry/instrumentation-mysql2';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, envDetector, resourceFromAttributes, serviceInstanceIdDetector } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { name as packageName, version } from '../package.json';
import { NO_ROUTE, routeOf } from './common/logging';
import { otlpSignals } from './config/tracing-env';

const REDACTED = '(redacted)';

/**
 * The server span's name and attributes once it is answered: named by its route template, as the
 * semantic conventions say (`GET /v1/products/getOne`; an unrouted request keeps the method alone),
 * with what the path and query may hold (a linkID, a shareID) replaced by the template, and the client
 * address Express derives (TRUST_PROXY) instead of one read from a header any client can send.
 */
function finishServerSpan(span: Span, request: IncomingMessage): void {
  const route = routeOf(request);
  if (route !== NO_ROUTE) {
    span.updateName(`${request.method ?? 'GET'} ${route}`);
    span.setAttribute('http.route', route);
  }
  span.setAttribute('url.path', route);
  span.setAttribute('http.target', route);
  if (request.url?.includes('?')) span.setAttribute('url.query', REDACTED);
  const ip = (request as IncomingMessage & { ip?: string }).ip;
  if (ip) span.setAttribute('client.address', ip);
}

/** An outgoing request's span keeps the origin it went to, not the path or query (a webhook URL may hold a secret). */
function scrubClientSpan(span: Span, request: ClientRequest): void {
  span.setAttribute('url.full', `${request.protocol}//${String(request.getHeader('host') ?? request.host)}`);
  span.setAttribute('url.path', REDACTED);
  span.setAttribute('http.target', REDACTED);
  span.setAttribute('http.url', REDACTED);
  if (request.path.includes('?')) span.setAttribute('url.query', REDACTED);
}

/**
 * OTEL_EXPORTER_OTLP_ENDPOINT (unset: no tracing, nothing loaded): the OpenTelemetry Node SDK, exporting
 * spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf by default, or http/json); the other
 * standard OTEL_* variables apply (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_BSP_*...).
 *
 * Nothing secret or personal goes into an attribute: paths are replaced by route templates, outgoing
 * URLs (a customer's webhook, a model server) keep only their origin, SQL is sent with its values
 * masked; no headers or bodies are recorded. The host and process detectors are left out (they record
 * the command line and the user name).
 */
export function startTracing(): NodeSDK {
  const signals = otlpSignals();
  const sdk = new NodeSDK({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': packageName, 'service.version': version })),
    // env last: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults above.
    resourceDetectors: [serviceInstanceIdDetector, envDetector],
    // Traces only, unless asked: the SDK would otherwise also start OTLP metric and log pipelines that
    // post to the same collector (every instrumentation recording its histograms on every request),
    // while the service's metrics are Prometheus's (METRICS_PORT) and its logs pino's.
    ...(signals.metrics ? {} : { metricReaders: [] }),
    ...(signals.logs ? {} : { logRecordProcessors: [] }),
    instrumentations: [
      new HttpInstrumentation({
        // Incoming: the service's requests. Outgoing (node:http): webhook sends, whose URL is a customer's.
        applyCustomAttributesOnSpan: (span, request) => {
          if (request instanceof ClientRequest) scrubClientSpan(span, request);
          else finishServerSpan(span, request);
        },
      }),
      // No Express instrumentation: the server span takes its route template from Express's own
      // req.route (above), and the spans Express's instrumentation adds (one per Nest middleware and
      // handler layer, six for a products/getOne) told nothing the request's span does not, while
      // making that read cost more than twice as much traced as untraced (bench/README.md).
      new MySQL2Instrumentation({ maskStatement: true }),
      // Given before the span starts, these replace the full URL, path and query it would record.
      new UndiciInstrumentation({
        startSpanHook: (request) => ({ 'url.full': request.origin, 'url.path': REDACTED, 'url.query': request.path.includes('?') ? REDACTED : '' }),
      }),
    ],
  });
  sdk.start();
  return sdk;
}
