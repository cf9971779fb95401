import { RETRY_JITTER } from './webhooks.limits';

/**
 * How long to wait after the `failed`-th failed attempt of a delivery (counted since it was written or
 * redelivered): the schedule's step ±10%, so that endpoints that failed together are not retried in
 * lockstep. Null when the schedule is used up: the delivery has failed.
 */
export function retryDelayMs(failed: number, scheduleMs: readonly number[], random: () => number = Math.random): number | null {
  const step = scheduleMs[failed - 1];
  if (step === undefined || failed < 1) return null;
  return Math.round(step * (1 + (random() * 2 - 1) * RETRY_JITTER));
}
