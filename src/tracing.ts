// Side-effect import, right after load-env in main.ts and before anything else is loaded: the
// instrumentations can only wrap modules (http, express, mysql2, undici) that are required after them.
import { tracingEnabled } from './config/tracing-env';

// Required, not imported, so that a process without tracing never loads the SDK (see tracing-sdk.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = tracingEnabled() ? (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracing() : undefined;

/** Sends the spans still buffered; main.ts awaits it before the process exits. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
}
