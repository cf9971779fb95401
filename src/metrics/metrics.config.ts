import { Env, readInt } from '../config/env';

/** The metrics' own settings (registered by MetricsModule with ConfigModule.forFeature). */
export class MetricsConfig {
  /** METRICS_PORT: the second listener serving GET /metrics; null (unset): no metrics at all. 0 picks a free port (tests). */
  readonly port: number | null;
}

export function readMetricsConfig(env: Env): MetricsConfig {
  const raw = env.METRICS_PORT?.trim();
  return { port: raw ? readInt(env, 'METRICS_PORT', 0, 0, 65535) : null };
}
