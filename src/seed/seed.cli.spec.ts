import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError, parseSeedArgs, tryHint } from './seed.cli';
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

describe('tryHint', () => {
  it('points at the service when /health answers on this PORT', async () => {
    const server = createServer((req, res) => res.writeHead(req.url === '/health' ? 200 : 404).end('{}'));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as AddressInfo;
    try {
      const hint = await tryHint(port, 'demo-org-1');
      expect(hint).toContain(`The service is running at http://localhost:${port}`);
      expect(hint).toContain(`"http://localhost:${port}/v1/products/getList?orgID=demo-org-1"`);
    } finally {
      server.close();
    }
  });

  it('says so when nothing answers there, instead of sending the reader to a dead URL', async () => {
    const server = createServer();
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as AddressInfo;
    await new Promise((ok) => server.close(ok));
    const hint = await tryHint(port, 'demo-org-1');
    expect(hint).toContain(`No service answers at http://localhost:${port} (PORT of this shell: ${port})`);
    expect(hint).toContain('If the service listens on another port');
  });
});
