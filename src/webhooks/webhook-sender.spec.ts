import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook } from './webhook-sender';

describe(sendWebhook.name, () => {
  let server: Server;
  let base: string;
  let handle: (req: IncomingMessage, res: ServerResponse) => void;
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        handle(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    received.length = 0;
  });

  const local = { allowLocal: true, timeoutMs: 2000 };

  it('POSTs the body as JSON with the given headers and reports the status and duration', async () => {
    handle = (_req, res) => res.writeHead(204).end();
    const outcome = await sendWebhook(`${base}/hook`, '{"a":1}', { 'webhook-id': 'id-1' }, local);
    expect(outcome).toEqual({ statusCode: 204, error: null, durationMs: expect.any(Number), aborted: false });
    expect(received).toEqual([{ headers: expect.objectContaining({ 'content-type': 'application/json', 'webhook-id': 'id-1', 'content-length': '7' }), body: '{"a":1}' }]);
  });

  it('does not follow a redirect', async () => {
    handle = (req, res) => (req.url === '/moved' ? res.writeHead(301, { Location: `${base}/target` }).end() : res.writeHead(200).end());
    const outcome = await sendWebhook(`${base}/moved`, '{}', {}, local);
    expect(outcome).toMatchObject({ statusCode: 301, error: 'redirects are not followed' });
    expect(received.map((r) => r.headers.host)).toHaveLength(1);
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    handle = () => undefined; // never answers
    const outcome = await sendWebhook(`${base}/slow`, '{}', {}, { allowLocal: true, timeoutMs: 300 });
    expect(outcome).toMatchObject({ statusCode: null, error: expect.stringMatching(/no answer within 0\.3 s/) });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(1500);
  });

  it('reports a refused connection as an error', async () => {
    const outcome = await sendWebhook('http://127.0.0.1:1/x', '{}', {}, local);
    expect(outcome).toMatchObject({ statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('refuses a local target without WEBHOOK_ALLOW_LOCAL, by address and by name, without connecting', async () => {
    handle = (_req, res) => res.writeHead(200).end();
    const port = (server.address() as AddressInfo).port;
    for (const url of [`https://127.0.0.1:${port}/x`, `https://localhost:${port}/x`, `http://127.0.0.1:${port}/x`]) {
      const outcome = await sendWebhook(url, '{}', {}, { allowLocal: false, timeoutMs: 2000 });
      expect({ url, outcome }).toEqual({ url, outcome: expect.objectContaining({ statusCode: null, error: expect.stringMatching(/^refused: /) }) });
    }
    expect(received).toEqual([]);
  });

  it('stops when aborted and says so', async () => {
    handle = () => undefined;
    const abort = new AbortController();
    const sending = sendWebhook(`${base}/slow`, '{}', {}, { ...local, signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    await expect(sending).resolves.toMatchObject({ aborted: true, statusCode: null });
  });
});
