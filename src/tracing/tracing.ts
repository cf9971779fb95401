// Side-effect import, right after load-env in main.ts and before anything else is loaded: the tracer
// provider is registered before the first span is asked for (a background job's, say, while the app starts).
import { applyDefaultSampling, tracingEnabled } from '../config/tracing-env';

// Required, not imported, so that a process without tracing never loads the SDK (see tracing-sdk.ts).
const sdk = tracingEnabled() ? start() : undefined;

function start(): ReturnType<typeof import('./tracing-sdk').startTracing> {
  applyDefaultSampling();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracing();
}

/** Sends the spans still buffered; main.ts awaits it before the process exits. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
}
