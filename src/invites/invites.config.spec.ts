import { loadConfig } from '../config/app-config';
import { ConfigError } from '../config/config-error';
import { readInvitesConfig } from './invites.config';

const read = (env: Record<string, string>) => loadConfig(env).feature(readInvitesConfig);

describe(readInvitesConfig.name, () => {
  it('has the documented defaults: links on this service, 30 days, a sweep a minute, 1,000 a request', () => {
    expect(read({})).toEqual({ inviteBaseUrl: 'http://localhost:3000/i', inviteTtlDays: 30, expirySweepMs: 60_000, maxInvitesPerRequest: 1000 });
  });

  it('opens invite links on this service when INVITE_BASE_URL is unset: the base follows PORT', () => {
    expect(read({ PORT: '4100' }).inviteBaseUrl).toBe('http://localhost:4100/i');
    expect(read({ PORT: '4100', INVITE_BASE_URL: 'https://research.example/i/' }).inviteBaseUrl).toBe('https://research.example/i');
  });

  it('strips trailing slashes from INVITE_BASE_URL', () => {
    expect(read({ INVITE_BASE_URL: 'https://irs.example.com/i//' }).inviteBaseUrl).toBe('https://irs.example.com/i');
  });

  it('reads each variable', () => {
    expect(read({ INVITE_TTL_DAYS: '7', EXPIRY_SWEEP_SECONDS: '5', MAX_INVITES_PER_REQUEST: '20' })).toMatchObject({ inviteTtlDays: 7, expirySweepMs: 5000, maxInvitesPerRequest: 20 });
  });

  it.each<[Record<string, string>, string]>([
    [{ INVITE_BASE_URL: 'ftp://x' }, 'INVITE_BASE_URL'],
    [{ INVITE_BASE_URL: '/i' }, 'INVITE_BASE_URL'],
    [{ MAX_INVITES_PER_REQUEST: '0' }, 'MAX_INVITES_PER_REQUEST'],
    [{ INVITE_TTL_DAYS: '366' }, 'INVITE_TTL_DAYS'],
    [{ EXPIRY_SWEEP_SECONDS: '61' }, 'EXPIRY_SWEEP_SECONDS'],
  ])('refuses %p with a ConfigError naming the variable', (env, variable) => {
    expect(() => read(env)).toThrow(ConfigError);
    expect(() => read(env)).toThrow(variable);
  });
});
