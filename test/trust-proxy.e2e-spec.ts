import { TestApp, startApp } from './helpers/app';

/**
 * TRUST_PROXY: behind HAProxy every interviewee arrives from the proxy's address. The room's per-address
 * limit must count each client (the address the trusted proxy names in X-Forwarded-For), and a client
 * must not be able to pick its own bucket by sending that header itself.
 */
const LIMITS = { ROOM_RATE_LIMIT_MAX: '3', ROOM_LINK_RATE_LIMIT_MAX: '1000', RATE_LIMIT_WINDOW_SECONDS: '60' };

async function statuses(t: TestApp, forwardedFor: (i: number) => string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await t.http.get(`/i/no-such-link-${i}/session`).set('X-Forwarded-For', forwardedFor(i))).status);
  return out;
}

describe('TRUST_PROXY unset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ ...LIMITS, TRUST_PROXY: '' });
  });
  afterAll(() => t.close());

  it('ignores a spoofed X-Forwarded-For: every request counts against the peer address', async () => {
    // A new address on each request would escape the limit if the header were believed.
    expect(await statuses(t, (i) => `198.51.100.${i + 1}`, 5)).toEqual([404, 404, 404, 429, 429]);
  });
});

describe('TRUST_PROXY naming the proxy (loopback: the test client plays the load balancer)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ ...LIMITS, TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  it('gives two clients behind the proxy separate buckets', async () => {
    expect(await statuses(t, () => '203.0.113.10', 4)).toEqual([404, 404, 404, 429]);
    // Another interviewee behind the same proxy still has all of its own requests.
    expect(await statuses(t, () => '203.0.113.20', 4)).toEqual([404, 404, 404, 429]);
  });

  it('takes the address the proxy appended, not one the client put before it', async () => {
    // The client sends "X-Forwarded-For: <anything>"; the proxy appends the address it saw.
    expect(await statuses(t, (i) => `192.0.2.${i + 1}, 203.0.113.30`, 4)).toEqual([404, 404, 404, 429]);
  });
});

describe('TRUST_PROXY as a hop count', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ ...LIMITS, TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  it('trusts one hop: the last address in X-Forwarded-For is the client', async () => {
    expect(await statuses(t, (i) => `192.0.2.${i + 1}, 203.0.113.40`, 4)).toEqual([404, 404, 404, 429]);
    expect(await statuses(t, () => '203.0.113.41', 3)).toEqual([404, 404, 404]);
  });
});
