import { IncomingHttpHeaders, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret } from '../config/server-fields';
import { openAiClient, serverFailureOf } from './openai-compatible';

/** The SDK's defaults that openAiClient overrides, against a real HTTP server on a free local port. */
describe('openAiClient', () => {
  let server: Server;
  let baseUrl: string;
  let requests: IncomingHttpHeaders[];
  let respond: (res: ServerResponse) => void;
  const key = new Secret('sk-test-key');
  const ask = (apiKey: typeof key | null = key, responseBytes = 1024) =>
    openAiClient({ baseUrl, apiKey, timeoutMs: 500 }, responseBytes).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (error: unknown) => serverFailureOf(error, 500),
    );

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests.push(req.headers);
        respond(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  beforeEach(() => {
    requests = [];
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('asks once: no retry of a 503 the SDK would retry twice', async () => {
    respond = (res) => res.writeHead(503, { 'Content-Type': 'application/json', 'x-should-retry': 'true' }).end('{"error": {"message": "busy"}}');
    await expect(failureOf(ask())).resolves.toEqual({ kind: 'http', status: 503 });
    expect(requests).toHaveLength(1);
  });

  it("sends the configured key and nothing from the SDK's OPENAI_* variables; no Authorization header without a key", async () => {
    respond = (res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"choices": []}');
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-from-env', OPENAI_ORG_ID: 'org-from-env', OPENAI_PROJECT_ID: 'proj-from-env' });
    try {
      await ask();
      await ask(null);
    } finally {
      for (const name of ['OPENAI_API_KEY', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID']) if (saved[name] === undefined) delete process.env[name];
    }
    expect(requests.map((headers) => headers.authorization)).toEqual(['Bearer sk-test-key', undefined]);
    expect(JSON.stringify(requests)).not.toMatch(/from-env/);
  });

  it('fails a body past the bound, whether its length is declared or not', async () => {
    const big = JSON.stringify({ choices: [], padding: 'x'.repeat(2000) });
    respond = (res) => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(big) }).end(big);
    await expect(failureOf(ask())).resolves.toEqual({ kind: 'too-large', bytes: 1024 });
    respond = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(big.slice(0, 1000));
      res.end(big.slice(1000));
    };
    await expect(failureOf(ask())).resolves.toEqual({ kind: 'too-large', bytes: 1024 });
    await expect(ask(key, 4096)).resolves.toMatchObject({ choices: [] });
  });

  it('times a binary body that stalls with the signal given (the SDK times JSON bodies only)', async () => {
    respond = (res) => {
      res.writeHead(200, { 'Content-Type': 'audio/mpeg' });
      res.write(Buffer.alloc(10));
    };
    const started = Date.now();
    const speech = openAiClient({ baseUrl, apiKey: null, timeoutMs: 300 }, 1024)
      .audio.speech.create({ model: 'm', voice: 'v', input: 'Hi' }, { signal: AbortSignal.timeout(300) })
      .then((response) => response.arrayBuffer());
    await expect(failureOf(speech)).resolves.toEqual({ kind: 'timeout', ms: 500 });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
