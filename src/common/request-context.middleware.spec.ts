import { Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type AddressInfo } from 'node:net';
import { createServer, get, type Server } from 'node:http';
import { RequestContextMiddleware } from './request-context.middleware';

/** A plain node:http server; `through` decides whether a request passes the middleware first. */
async function serve(middleware: RequestContextMiddleware, through: boolean): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const answer = () => {
      res.statusCode = 201;
      res.end('ok');
    };
    if (through) middleware.use(Object.assign(req, { originalUrl: req.url }) as unknown as Request, res as unknown as Response, answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function fetchOnce(port: number, path: string, headers: Record<string, string> = {}): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['x-request-id'] as string | undefined));
    }).on('error', reject);
  });
}

describe(RequestContextMiddleware.name, () => {
  let log: jest.SpyInstance;
  const servers: Server[] = [];

  beforeEach(() => {
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });

  afterEach(async () => {
    log.mockRestore();
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('writes one line per finished request: id, method, path without the query or the link, status, duration', async () => {
    const middleware = new RequestContextMiddleware();
    const { server, port } = await serve(middleware, true);
    servers.push(server);
    const id = await fetchOnce(port, '/i/AbCdEf0123456789AbCdEf0123456789/session?x=1', { 'X-Request-Id': 'trace-1' });
    await fetchOnce(port, '/v1/products/getOne?productID=p');
    await new Promise((resolve) => setTimeout(resolve, 20)); // the server's 'finish' may trail the client's last read
    middleware.onApplicationShutdown();
    expect(id).toBe('trace-1');
    expect(log.mock.calls.map(([record]) => ({ ...(record as object), durationMs: typeof (record as { durationMs: unknown }).durationMs }))).toEqual([
      { msg: 'request', requestId: 'trace-1', method: 'GET', path: '/i/:linkID/session', status: 201, durationMs: 'number' },
      { msg: 'request', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), method: 'GET', path: '/v1/products/getOne', status: 201, durationMs: 'number' },
    ]);
  });

  it('logs only the requests it started, and nothing once the application has shut down', async () => {
    const middleware = new RequestContextMiddleware();
    const other = await serve(middleware, false);
    const ours = await serve(middleware, true);
    servers.push(other.server, ours.server);
    await fetchOnce(other.port, '/elsewhere');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).not.toHaveBeenCalled();
    middleware.onApplicationShutdown();
    await fetchOnce(ours.port, '/v1/after-shutdown');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).not.toHaveBeenCalled();
  });
});
