// Loaded by tracing.ts only when tracing is on: the SDK takes a while to load.
import { defaultResource, envDetector, resourceFromAttributes, serviceInstanceIdDetector } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { name as packageName, version } from '../../package.json';
import { otlpSignals } from '../config/tracing-env';
import { traceQueries } from './query-spans';

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
    // post to the same collector (the SDK recording its own counts of spans on every request),
    // while the service's metrics are Prometheus's (METRICS_PORT) and its logs pino's.
    ...(signals.metrics ? {} : { metricReaders: [] }),
    ...(signals.logs ? {} : { logRecordProcessors: [] }),
    // No instrumentations: each one's base class installs a require hook (require-in-the-middle) that
    // every query paid for, mysql2 requiring its promise wrapper per query. The server span is
    // requestSpan's, the client spans (webhooks, model and speech servers) startClientSpan's, the
    // queries' query-spans.ts's: all through the API.
    instrumentations: [],
  });
  sdk.start();
  // Queries: from the channels mysql2 publishes, not by wrapping it (query-spans.ts).
  traceQueries();
  return sdk;
}
