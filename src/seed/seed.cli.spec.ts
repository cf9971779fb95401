import { UsageError, parseSeedArgs } from './seed.cli';
import { DEFAULT_SEED } from './seed.service';

jest.mock('../config/load-env', () => ({}));

describe('parseSeedArgs', () => {
  it('uses the defaults without arguments', () => {
    expect(parseSeedArgs([])).toEqual(DEFAULT_SEED);
  });

  it('reads sizes and the prefix', () => {
    expect(parseSeedArgs(['--products', '1000', '--invites', '20', '--prefix', 'bench'])).toMatchObject({ products: 1000, invites: 20, prefix: 'bench' });
  });

  it.each([
    [['--products']],
    [['--products', '-1']],
    [['--products', '1.5']],
    [['--products', 'many']],
    [['--interviews', '101']],
    [['--colour', 'blue']],
    [['products', '5']],
    [['--prefix', 'bad prefix']],
    [['--orgs', '0', '--users', '0']],
    [['--help']],
  ])('refuses %j with a usage message', (argv) => {
    expect(() => parseSeedArgs(argv)).toThrow(UsageError);
  });
});
