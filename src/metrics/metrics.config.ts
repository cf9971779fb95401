import { Env, readInt } from '../config/env';
import { featureConfig } from '../config/feature-config';

/** The metrics' own settings (the namespace metricsConfig). */
export interface MetricsConfig {
  /** METRICS_PORT: the second listener serving GET /metrics; null (unset): no metrics at all. 0 picks a free port (tests). */
  readonly port: number | null;
}

export function readMetricsConfig(env: Env): MetricsConfig {
  const raw = env.METRICS_PORT?.trim();
  return { port: raw ? readInt(env, 'METRICS_PORT', 0, 0, 65535) : null };
}

export const metricsConfig = featureConfig('metrics', readMetricsConfig);
