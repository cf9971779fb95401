import { loadConfig } from '../config/app-config';
import { ConfigError } from '../config/config-error';
import { readRoomConfig } from './room.config';

const read = (env: Record<string, string>) => loadConfig(env).feature(readRoomConfig);

describe(readRoomConfig.name, () => {
  it('has the documented defaults and reads each variable', () => {
    expect(read({})).toEqual({
      // The default is each language catalog's room.consent.default.
      consentText: null,
      rateLimit: { perAddress: 120, perLink: 60 },
    });
    expect(read({ CONSENT_TEXT: 'We record this.', ROOM_RATE_LIMIT_MAX: '10', ROOM_LINK_RATE_LIMIT_MAX: '3' })).toEqual({
      consentText: 'We record this.',
      rateLimit: { perAddress: 10, perLink: 3 },
    });
  });

  it.each<[Record<string, string>, string]>([
    [{ ROOM_RATE_LIMIT_MAX: '0' }, 'ROOM_RATE_LIMIT_MAX'],
    [{ ROOM_LINK_RATE_LIMIT_MAX: 'many' }, 'ROOM_LINK_RATE_LIMIT_MAX'],
    [{ CONSENT_TEXT: 'x'.repeat(2001) }, 'CONSENT_TEXT'],
  ])('refuses %p with a ConfigError naming the variable', (env, variable) => {
    expect(() => read(env)).toThrow(ConfigError);
    expect(() => read(env)).toThrow(variable);
  });
});
