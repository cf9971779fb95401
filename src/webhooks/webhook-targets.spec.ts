import { request } from 'node:https';
import { checkTarget, refusalOf, refusedAddress, refusedTarget, webhookAgent } from './webhook-targets';

describe(refusedAddress.name, () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'reserved or broadcast'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['[::1]', 'loopback'],
    ['::7f00:1', 'reserved'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['64:ff9b::8.8.8.8', 'NAT64'],
    ['2002:7f00:1::1', '6to4'],
    ['2001::1', 'Teredo'],
    ['fec0::1', 'site-local'],
    ['198.18.0.1', 'reserved'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(refusedAddress(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.15.255.255', '172.32.0.1', '192.169.0.1', '169.253.255.255', '100.128.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888', 'fbff::1', '2a00:1450:4001::200e'])(
    'allows the public address %s',
    (address) => {
      expect(refusedAddress(address)).toBeUndefined();
    },
  );

  it('refuses what is not an IP address', () => {
    expect(refusedAddress('example.com')).toBe('not an IP address');
  });
});

describe(refusedTarget.name, () => {
  it.each([
    ['http://hooks.example.com/x', /https only/],
    ['https://127.0.0.1/x', /127\.0\.0\.1 is a loopback address/],
    ['https://[::1]/x', /::1 is a loopback address/],
    ['https://[::ffff:127.0.0.1]/x', /loopback/],
    ['https://0x7f000001/x', /127\.0\.0\.1 is a loopback/],
    ['https://2130706433/x', /loopback/],
    ['https://127.1/x', /loopback/],
    ['https://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ['https://metadata.google.internal/computeMetadata/v1/', /cloud metadata service/],
    ['https://METADATA.GOOGLE.INTERNAL./x', /cloud metadata service/],
    ['https://10.0.0.5/x', /private/],
  ])('refuses %s without DNS', (url, reason) => {
    expect(refusedTarget(new URL(url), false)).toMatch(reason);
  });

  it('leaves names to the DNS check and allows public IP literals', () => {
    expect(refusedTarget(new URL('https://hooks.example.com/x'), false)).toBeUndefined();
    expect(refusedTarget(new URL('https://8.8.8.8/x'), false)).toBeUndefined();
  });

  it('allows http and local addresses with WEBHOOK_ALLOW_LOCAL', () => {
    expect(refusedTarget(new URL('http://127.0.0.1:9000/x'), true)).toBeUndefined();
    expect(refusedTarget(new URL('https://[::1]/x'), true)).toBeUndefined();
  });
});

describe(checkTarget.name, () => {
  it('refuses a name that resolves to a loopback address', async () => {
    await expect(checkTarget(new URL('https://localhost/x'), false)).resolves.toMatch(/resolves to a loopback address/);
  });

  it('refuses a name that does not resolve', async () => {
    await expect(checkTarget(new URL('https://no-such-host.invalid/x'), false)).resolves.toBe('the host does not resolve');
  });

  it('allows a public IP literal without asking DNS, and anything http(s) with WEBHOOK_ALLOW_LOCAL', async () => {
    await expect(checkTarget(new URL('https://8.8.8.8/x'), false)).resolves.toBeUndefined();
    await expect(checkTarget(new URL('http://localhost:9/x'), true)).resolves.toBeUndefined();
  });
});

/** What the sending agent does with a connection to `host`: 'refused' (with its words) or 'let through' (any other outcome). */
function connectWithAgent(host: string, allowLocal = false): Promise<{ outcome: 'refused' | 'let through'; refusal?: string }> {
  const url = new URL(`https://${host.includes(':') ? `[${host}]` : host}:9/`);
  return new Promise((resolve) => {
    const req = request(url, { agent: webhookAgent(url, allowLocal), timeout: 300 });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => {
      const refusal = refusalOf(error);
      resolve(refusal ? { outcome: 'refused', refusal } : { outcome: 'let through' });
    });
    req.end();
  });
}

describe('the sending agent (request-filtering-agent)', () => {
  const refused = ['127.0.0.1', '::1', '10.0.0.1', '172.16.0.1', '192.168.1.10', '169.254.169.254', '100.100.100.200', 'fd00:ec2::254', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', '64:ff9b::192.168.0.1', '0.0.0.0', '::', '224.0.0.1', '100.64.0.1', '::7f00:1', '198.18.0.1'];
  const allowed = ['8.8.8.8', '93.184.215.14', '172.32.0.1', '2606:4700:4700::1111'];

  // The pin between the library and our registration check: where refusedAddress() refuses, the agent
  // refuses to connect, and where it allows, the agent tries. A change in either shows here.
  it.each(refused)('refuses to connect to %s, as the registration check does', async (address) => {
    expect(refusedAddress(address)).toBeDefined();
    await expect(connectWithAgent(address)).resolves.toEqual({ outcome: 'refused', refusal: `the host resolves to a ${refusedAddress(address)} address; webhooks go to public addresses only` });
  });

  it.each(allowed)('tries to connect to the public address %s, as the registration check allows', async (address) => {
    expect(refusedAddress(address)).toBeUndefined();
    await expect(connectWithAgent(address)).resolves.toEqual({ outcome: 'let through' });
  });

  it('refuses a name whose address is not public, as the socket is about to connect', async () => {
    await expect(connectWithAgent('localhost')).resolves.toEqual({ outcome: 'refused', refusal: expect.stringMatching(/^the host resolves to a loopback address/) });
  });

  it('lets everything through with WEBHOOK_ALLOW_LOCAL', async () => {
    await expect(connectWithAgent('127.0.0.1', true)).resolves.toEqual({ outcome: 'let through' });
    await expect(connectWithAgent('localhost', true)).resolves.toEqual({ outcome: 'let through' });
  });
});
