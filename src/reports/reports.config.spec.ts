import { loadConfig } from '../config/app-config';
import { ConfigError } from '../config/config-error';
import { readReportsConfig } from './reports.config';

const read = (env: Record<string, string>) => loadConfig(env).feature(readReportsConfig);

describe(readReportsConfig.name, () => {
  it('has the documented defaults: pages on this service, a 30 s lease, a look every 2 s, 120 page requests, a 1,536 MB analysis heap', () => {
    expect(read({})).toEqual({ shareBaseUrl: 'http://localhost:3000/r', leaseMs: 30_000, pollMs: 2000, shareRateLimit: 120, workerHeapMb: 1536 });
  });

  it('reads each variable', () => {
    expect(read({ SHARE_BASE_URL: 'https://irs.example/r', REPORT_LEASE_SECONDS: '10', REPORT_POLL_SECONDS: '5', SHARE_RATE_LIMIT_MAX: '7', REPORT_WORKER_HEAP_MB: '4096' })).toEqual({
      shareBaseUrl: 'https://irs.example/r',
      leaseMs: 10_000,
      pollMs: 5000,
      shareRateLimit: 7,
      workerHeapMb: 4096,
    });
  });

  it.each<[Record<string, string>, string]>([
    [{ REPORT_WORKER_HEAP_MB: '255' }, 'REPORT_WORKER_HEAP_MB'],
    [{ REPORT_WORKER_HEAP_MB: '1.5' }, 'REPORT_WORKER_HEAP_MB'],
    [{ REPORT_WORKER_HEAP_MB: 'lots' }, 'REPORT_WORKER_HEAP_MB'],
    [{ REPORT_LEASE_SECONDS: '0' }, 'REPORT_LEASE_SECONDS'],
  ])('refuses %p with a ConfigError naming the variable', (env, variable) => {
    expect(() => read(env)).toThrow(ConfigError);
    expect(() => read(env)).toThrow(variable);
  });
});
