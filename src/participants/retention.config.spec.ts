import { ConfigError } from '../config/config-error';
import { readRetentionConfig } from './retention.config';

describe(readRetentionConfig.name, () => {
  it('keeps everything when RETENTION_DAYS is unset, and sweeps every minute', () => {
    expect(readRetentionConfig({})).toEqual({ retentionDays: null, sweepMs: 60_000 });
  });

  it('reads RETENTION_DAYS and RETENTION_SWEEP_SECONDS', () => {
    expect(readRetentionConfig({ RETENTION_DAYS: '90', RETENTION_SWEEP_SECONDS: '5' })).toEqual({ retentionDays: 90, sweepMs: 5_000 });
  });

  it.each(['0', '3651', '-1', '1.5', 'forever'])('refuses RETENTION_DAYS=%s naming the variable', (value) => {
    expect(() => readRetentionConfig({ RETENTION_DAYS: value })).toThrow(ConfigError);
    expect(() => readRetentionConfig({ RETENTION_DAYS: value })).toThrow(/RETENTION_DAYS must be a whole number from 1 to 3650/);
  });
});
