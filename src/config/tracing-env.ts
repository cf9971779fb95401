import type { Env } from './env';

/**
 * Whether OpenTelemetry tracing is on: OTEL_EXPORTER_OTLP_ENDPOINT names a collector and
 * OTEL_SDK_DISABLED is not true. Read before AppConfig exists: the tracing preload (src/tracing.ts)
 * must start the SDK before the modules it instruments are loaded. The SDK reads the other OTEL_*
 * variables itself, as the OpenTelemetry specification says.
 */
export function tracingEnabled(env: Env = process.env): boolean {
  return !!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}
