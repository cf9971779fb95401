import type { AppConfig } from '../config/app-config';
import { Env, readHttpUrl, readInt } from '../config/env';
import { featureConfig } from '../config/feature-config';
import { DEFAULT_WORKER_HEAP_MB } from './analysis/offline-analysis-runner';

/** The reports' own settings (the namespace reportsConfig): their type is this reader's, as with Nest's registerAs. */
export function readReportsConfig(env: Env, app: AppConfig) {
  return {
    /** Share links are `${shareBaseUrl}/${shareID}`. Unset, they open on this very service, as invite links do. */
    shareBaseUrl: readHttpUrl(env, 'SHARE_BASE_URL', `http://localhost:${app.port}/r`),
    /** A running report's claim lasts this long unless renewed; a dead instance's report is taken over after it. */
    leaseMs: readInt(env, 'REPORT_LEASE_SECONDS', 30, 1, 3600) * 1000,
    /** How often each instance looks for queued reports (a report queued in this process starts at once). */
    pollMs: readInt(env, 'REPORT_POLL_SECONDS', 2, 1, 60) * 1000,
    /** Requests per RATE_LIMIT_WINDOW_SECONDS to the shared pages, per client address. */
    shareRateLimit: readInt(env, 'SHARE_RATE_LIMIT_MAX', 120, 1, 1_000_000),
    /** The offline analysis worker's heap limit, in MB: a report that needs more fails. */
    workerHeapMb: readInt(env, 'REPORT_WORKER_HEAP_MB', DEFAULT_WORKER_HEAP_MB, 256, 65_536),
  } as const;
}

export const reportsConfig = featureConfig('reports', readReportsConfig);
