import { retryDelayMs } from './retry-schedule';
import { RETRY_SCHEDULE_SECONDS } from './webhooks.limits';

const SCHEDULE = RETRY_SCHEDULE_SECONDS.map((s) => s * 1000);

describe(retryDelayMs.name, () => {
  it("follows the contract's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then nothing (failed)", () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((failed) => retryDelayMs(failed, SCHEDULE, middle))).toEqual([
      5_000,
      300_000,
      1_800_000,
      7_200_000,
      18_000_000,
      36_000_000,
      36_000_000,
      null,
    ]);
  });

  it.each(SCHEDULE.map((ms, i) => [i + 1, ms]))('keeps the wait after failure %i within ±10%% of %i ms', (failed, ms) => {
    expect(retryDelayMs(failed, SCHEDULE, () => 0)).toBe(Math.round(ms * 0.9));
    expect(retryDelayMs(failed, SCHEDULE, () => 0.5)).toBe(ms);
    // Random numbers are below 1: the upper bound is approached, never passed.
    expect(retryDelayMs(failed, SCHEDULE, () => 0.9999999)).toBeLessThanOrEqual(Math.round(ms * 1.1));
    expect(retryDelayMs(failed, SCHEDULE, () => 0.9999999)).toBeGreaterThan(ms * 1.0999);
    for (let i = 0; i < 200; i++) {
      const wait = retryDelayMs(failed, SCHEDULE)!;
      expect(wait).toBeGreaterThanOrEqual(ms * 0.9);
      expect(wait).toBeLessThanOrEqual(ms * 1.1);
    }
  });

  it('spreads waits out rather than retrying every endpoint in lockstep', () => {
    const waits = new Set(Array.from({ length: 50 }, () => retryDelayMs(1, SCHEDULE)));
    expect(waits.size).toBeGreaterThan(10);
  });

  it('follows a shortened schedule (WEBHOOK_RETRY_SCHEDULE in tests) the same way', () => {
    expect(retryDelayMs(1, [200, 400], () => 0.5)).toBe(200);
    expect(retryDelayMs(2, [200, 400], () => 0.5)).toBe(400);
    expect(retryDelayMs(3, [200, 400], () => 0.5)).toBeNull();
  });

  it('has no wait before any attempt failed', () => {
    expect(retryDelayMs(0, SCHEDULE)).toBeNull();
  });
});
