import { Env, readInt } from '../config/env';
import { INTERVIEW_LIMITS } from '../domain/interview.limits';
import { featureConfig } from '../config/feature-config';

/** The retention sweep's settings (the namespace retentionConfig). */
export interface RetentionConfig {
  /** Days a finished invite is kept before its interviewee's data is erased; null (RETENTION_DAYS unset): kept. An interview's retentionDays overrides it. */
  readonly retentionDays: number | null;
  /** How often each instance looks for invites past their retention. */
  readonly sweepMs: number;
}

export function readRetentionConfig(env: Env): RetentionConfig {
  const days = readInt(env, 'RETENTION_DAYS', 0, INTERVIEW_LIMITS.retentionDays.min, INTERVIEW_LIMITS.retentionDays.max);
  return {
    retentionDays: days === 0 ? null : days,
    sweepMs: readInt(env, 'RETENTION_SWEEP_SECONDS', 60, 1, 60) * 1000,
  };
}

export const retentionConfig = featureConfig('retention', readRetentionConfig);
