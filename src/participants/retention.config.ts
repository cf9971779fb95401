import { Env, readInt } from '../config/env';
import { INTERVIEW_LIMITS } from '../domain/interview.limits';
import { featureConfig } from '../config/feature-config';

/** The retention sweep's settings (the namespace retentionConfig): their type is this reader's, as with Nest's registerAs. */
export function readRetentionConfig(env: Env) {
  const days = readInt(env, 'RETENTION_DAYS', 0, INTERVIEW_LIMITS.retentionDays.min, INTERVIEW_LIMITS.retentionDays.max);
  return {
    /** Days a finished invite is kept before its interviewee's data is erased; null (RETENTION_DAYS unset): kept. An interview's retentionDays overrides it. */
    retentionDays: days === 0 ? null : days,
    /** How often each instance looks for invites past their retention. */
    sweepMs: readInt(env, 'RETENTION_SWEEP_SECONDS', 60, 1, 60) * 1000,
  } as const;
}

export const retentionConfig = featureConfig('retention', readRetentionConfig);
