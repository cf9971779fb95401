import { ConfigError } from '../config/config-error';
import { Env, readBool, readInt } from '../config/env';
import { RELAY, RETRY_SCHEDULE_SECONDS } from './webhooks.limits';
import { featureConfig } from '../config/feature-config';

/**
 * WEBHOOK_RETRY_SCHEDULE, for tests: comma-separated waits in seconds (decimals allowed) that replace
 * the contract's 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. Unset: that schedule.
 */
function readRetrySchedule(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_SCHEDULE?.trim();
  if (!raw) return RETRY_SCHEDULE_SECONDS.map((s) => s * 1000);
  const steps = raw.split(',').map((s) => s.trim());
  if (steps.length > 20 || steps.some((s) => !/^\d{1,6}(\.\d{1,3})?$/.test(s) || Number(s) <= 0 || Number(s) > 86_400)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated waits in seconds, each above 0 and at most 86400 (got "${raw}")`);
  }
  return steps.map((s) => Math.round(Number(s) * 1000));
}

/** The webhooks' own settings (the namespace webhooksConfig): their type is this reader's, as with Nest's registerAs. */
export function readWebhooksConfig(env: Env) {
  return {
    /** Development and tests only: deliver to loopback, private and link-local addresses, and over http. */
    allowLocal: readBool(env, 'WEBHOOK_ALLOW_LOCAL', false),
    /** The waits between attempts, in ms: the contract's schedule unless WEBHOOK_RETRY_SCHEDULE shortens it (tests). */
    retryScheduleMs: readRetrySchedule(env),
    /** An attempt without an answer within this has failed: the contract's 10 s unless WEBHOOK_TIMEOUT_MS shortens it (tests). */
    timeoutMs: readInt(env, 'WEBHOOK_TIMEOUT_MS', RELAY.timeoutMs, 100, RELAY.timeoutMs),
  } as const;
}

export const webhooksConfig = featureConfig('webhooks', readWebhooksConfig);
