import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceLoad, serviceBusy } from './service-load';

describe('ServiceLoad', () => {
  it('counts as busy before its first update and once stopped', () => {
    const load = new ServiceLoad();
    const busy = serviceBusy(load.buffer);
    expect(busy()).toBe(true);
    load.update(1_000);
    expect(busy()).toBe(false);
    load.stop();
    expect(busy()).toBe(true);
  });

  it('is busy while the last second held 20 requests or more: a steady load, not a client polling progress', () => {
    const load = new ServiceLoad();
    const busy = serviceBusy(load.buffer);
    // Ten polls a second: idle.
    for (let at = 0; at < 2_000; at += 100) load.arrived(at);
    load.update(2_000);
    expect(busy()).toBe(false);
    // 200 requests a second for a tenth of a second (20): busy, until the first of them is a second old.
    for (let at = 2_000; at < 2_100; at += 5) load.arrived(at);
    load.update(2_100);
    expect(busy()).toBe(true);
    load.update(2_999);
    expect(busy()).toBe(true);
    load.update(3_000);
    expect(busy()).toBe(false);
  });

  it('hears the requests of the process\'s HTTP servers', async () => {
    const load = new ServiceLoad();
    const busy = serviceBusy(load.buffer);
    const server = createServer((_, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    load.start();
    try {
      const get = () => new Promise<void>((resolve, reject) => request({ port, host: '127.0.0.1', agent: false }, (res) => res.resume().on('end', resolve)).on('error', reject).end());
      for (let i = 0; i < 25; i++) await get();
      load.update(performance.now());
      expect(busy()).toBe(true);
    } finally {
      load.stop();
      server.close();
    }
  });
});
