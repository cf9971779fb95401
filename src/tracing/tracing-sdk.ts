// Loaded by tracing.ts only when tracing is on: the SDK and its instrumentations take half a second to load.
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, envDetector, resourceFromAttributes, serviceInstanceIdDetector } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { name as packageName, version } from '../../package.json';
import { otlpSignals } from '../config/tracing-env';
import { traceQueries } from './query-spans';

const REDACTED = '(redacted)';

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
      // No HTTP instrumentation: it hooks require, and every query paid for the hook (mysql2 requires its
      // promise wrapper per query). The server span is RequestSpanMiddleware's, a webhook send's client
      // span webhook-sender.ts's, both through the API. Calls through fetch (model and speech servers)
      // are undici's, read from its diagnostics channels (no require hook). Given before the span
      // starts, these attributes replace the full URL, path and query it would record.
      new UndiciInstrumentation({
        startSpanHook: (request) => ({ 'url.full': request.origin, 'url.path': REDACTED, 'url.query': request.path.includes('?') ? REDACTED : '' }),
      }),
    ],
  });
  sdk.start();
  // Queries: from the channels mysql2 publishes, not by wrapping it (query-spans.ts).
  traceQueries();
  return sdk;
}
