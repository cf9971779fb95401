// Side-effect import, right after load-env in main.ts and before anything else is loaded: the
// instrumentations can only wrap modules (http, undici) that are required after them.
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
