import { UsageError, parseArgs } from './token.cli';

// The CLI's entry point reads a .env file on import; the parser under test needs no environment.
jest.mock('../config/load-env', () => ({}));

describe(parseArgs.name, () => {
  describe('create', () => {
    it('reads --org, --user and --name', () => {
      expect(parseArgs(['create', '--org', 'o', '--user', 'u', '--name', 'n'])).toEqual({
        command: 'create',
        org: 'o',
        user: 'u',
        name: 'n',
        admin: false,
      });
    });

    it('accepts the flags in any order', () => {
      expect(parseArgs(['create', '--name', 'ci bot', '--user', 'user_42'])).toEqual({
        command: 'create',
        user: 'user_42',
        name: 'ci bot',
        admin: false,
      });
    });

    it.each([
      ['--org', 'orgB '],
      ['--org', ' orgB'],
      ['--user', 'u\u00a0'],
    ])('refuses %s %j: identifiers with whitespace at an end are refused, not trimmed', (flag, value) => {
      expect(() => parseArgs(['create', flag, value])).toThrow(UsageError);
      expect(() => parseArgs(['create', flag, value])).toThrow(`${flag} must not start or end with whitespace`);
    });

    it('reads --admin', () => {
      expect(parseArgs(['create', '--admin'])).toEqual({ command: 'create', admin: true });
      expect(parseArgs(['create', '--admin', '--name', 'ops'])).toEqual({ command: 'create', admin: true, name: 'ops' });
    });
  });

  it('reads list', () => {
    expect(parseArgs(['list'])).toEqual({ command: 'list', admin: false });
  });

  it('reads revoke <id>', () => {
    expect(parseArgs(['revoke', '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b'])).toEqual({
      command: 'revoke',
      admin: false,
      id: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b',
    });
  });

  describe('refuses bad usage with a UsageError', () => {
    it.each<[string, string[], RegExp]>([
      ['no command', [], /^Usage:/],
      ['an unknown command', ['delete', 'x'], /^Usage:/],
      ['create with neither scope nor admin', ['create'], /create needs --org and\/or --user, or --admin/],
      ['create with only a name', ['create', '--name', 'n'], /create needs --org and\/or --user, or --admin/],
      ['--admin with --org', ['create', '--admin', '--org', 'o'], /--admin takes no --org or --user/],
      ['--admin with --user', ['create', '--user', 'u', '--admin'], /--admin takes no --org or --user/],
      ['revoke without id', ['revoke'], /revoke needs the token's id/],
      ['revoke with two ids', ['revoke', 'a', 'b'], /unexpected argument "b"/],
      ['--org without value', ['create', '--org'], /--org needs a value/],
      ['--org followed by another flag', ['create', '--org', '--user', 'u'], /--org needs a value/],
      ['--name with a blank value', ['create', '--org', 'o', '--name', '  '], /--name needs a value/],
      ['--user with a value over 100 characters', ['create', '--user', 'u'.repeat(101)], /--user needs a value \(1 to 100 characters\)/],
      ['an unknown flag', ['create', '--org', 'o', '--force'], /unexpected argument "--force"/],
      ['a stray argument to create', ['create', '--org', 'o', 'extra'], /unexpected argument "extra"/],
      ['an argument to list', ['list', '--all'], /unexpected argument "--all"/],
    ])('%s', (_label, argv, message) => {
      expect(() => parseArgs(argv)).toThrow(UsageError);
      expect(() => parseArgs(argv)).toThrow(message);
    });

    it('includes the usage text in every error', () => {
      expect(() => parseArgs(['create'])).toThrow(/npm run token -- create --admin/);
    });
  });
});
