import { Env, readInt } from '../config/env';
import { featureConfig } from '../config/feature-config';

/** The metrics' own settings (the namespace metricsConfig): their type is this reader's, as with Nest's registerAs. */
export function readMetricsConfig(env: Env) {
  const raw = env.METRICS_PORT?.trim();
  return {
    /** METRICS_PORT: the second listener serving GET /metrics; null (unset): no metrics at all. 0 picks a free port (tests). */
    port: raw ? readInt(env, 'METRICS_PORT', 0, 0, 65535) : null,
  } as const;
}

export const metricsConfig = featureConfig('metrics', readMetricsConfig);
