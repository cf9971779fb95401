// Side-effect import, right after load-env in main.ts and before anything else is loaded: the
// instrumentations can only wrap modules (http, express, mysql2, undici) that are required after them.

/** Tracing is on when OTEL_EXPORTER_OTLP_ENDPOINT names a collector (and OTEL_SDK_DISABLED is not true). */
const enabled = !!process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() && process.env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';

// Required, not imported, so that a process without tracing never loads the SDK (see tracing-sdk.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = enabled ? (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracing() : undefined;

/** Sends the spans still buffered; main.ts awaits it before the process exits. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
}
