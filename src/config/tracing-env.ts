import type { Env } from './env';

/**
 * Whether OpenTelemetry tracing is on: OTEL_EXPORTER_OTLP_ENDPOINT names a collector and
 * OTEL_SDK_DISABLED is not true. Read before AppConfig exists: the tracing preload (src/tracing/tracing.ts)
 * must start the SDK before the modules it instruments are loaded. The SDK reads the other OTEL_*
 * variables itself, as the OpenTelemetry specification says.
 */
export function tracingEnabled(env: Env = process.env): boolean {
  return !!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

/**
 * Which other OpenTelemetry signals go over OTLP beside traces: only those named in the standard
 * OTEL_METRICS_EXPORTER and OTEL_LOGS_EXPORTER (the SDK's own default for both, when unset, is "otlp";
 * the service's metrics are Prometheus's and its logs pino's, so it sends neither unless asked).
 */
export function otlpSignals(env: Env = process.env): { metrics: boolean; logs: boolean } {
  const named = (value: string | undefined) => !!value?.trim();
  return { metrics: named(env.OTEL_METRICS_EXPORTER), logs: named(env.OTEL_LOGS_EXPORTER) };
}

/** The default sampling: a tenth of the traces that start here, and whatever a caller's traceparent decided for the rest. */
export const DEFAULT_SAMPLER = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' } as const;

/**
 * Sets the standard sampler variables to DEFAULT_SAMPLER where OTEL_TRACES_SAMPLER is not set, before
 * the SDK reads them. Tracing every request costs a busy service a share of its throughput
 * (bench/README.md) for traces nobody reads; a tenth of them shows the same routes and their latency.
 * OTEL_TRACES_SAMPLER (always_on, for one) still decides when it is set.
 */
export function applyDefaultSampling(env: Env = process.env): void {
  if (env.OTEL_TRACES_SAMPLER?.trim()) return;
  Object.assign(env, DEFAULT_SAMPLER);
}
