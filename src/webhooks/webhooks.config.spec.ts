import { loadConfig } from '../config/app-config';
import { ConfigError } from '../config/config-error';
import { readWebhooksConfig } from './webhooks.config';

const read = (env: Record<string, string>) => loadConfig(env).feature(readWebhooksConfig);

describe(readWebhooksConfig.name, () => {
  it("sends to public https targets only, with the contract's retry schedule and 10 s timeout by default", () => {
    expect(read({})).toEqual({
      allowLocal: false,
      retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      timeoutMs: 10_000,
    });
  });

  it('reads WEBHOOK_ALLOW_LOCAL, a shortened WEBHOOK_RETRY_SCHEDULE in seconds and a shorter WEBHOOK_TIMEOUT_MS (tests)', () => {
    expect(read({ WEBHOOK_ALLOW_LOCAL: 'true', WEBHOOK_RETRY_SCHEDULE: '0.2, 1,5', WEBHOOK_TIMEOUT_MS: '500' })).toEqual({
      allowLocal: true,
      retryScheduleMs: [200, 1000, 5000],
      timeoutMs: 500,
    });
  });

  it.each<[Record<string, string>, string]>([
    [{ WEBHOOK_ALLOW_LOCAL: 'sometimes' }, 'WEBHOOK_ALLOW_LOCAL'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5,x' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '0' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '-1' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5,,5' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '90000' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_TIMEOUT_MS: '20000' }, 'WEBHOOK_TIMEOUT_MS'],
  ])('refuses %p with a ConfigError naming the variable', (env, variable) => {
    expect(() => read(env)).toThrow(ConfigError);
    expect(() => read(env)).toThrow(variable);
  });
});
