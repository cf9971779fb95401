import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got: verified with the Standard Webhooks library on the raw body. */
export interface Received {
  path: string;
  id: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  /** Date.now() when the body had arrived. */
  at: number;
  /** Null when Webhook.verify accepted it; the library's complaint otherwise. */
  verifyError: string | null;
  /** The W3C trace context the sender passed on, when tracing is on. */
  traceparent?: string;
}

/** What an endpoint answers: a status, a redirect, or nothing at all. */
export type Behaviour = (attempt: number) => number | 'hang' | { status: number; headers?: Record<string, string>; delayMs?: number };

/**
 * A webhook receiver, as a customer would write one: node:http on 127.0.0.1, every request verified
 * with the standardwebhooks library on the raw body with the secret of the endpoint registered at its
 * path. Each endpoint gets a path of its own; `behave` decides what a path answers.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly attempts = new Map<string, number>();
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly base: string,
  ) {}

  static async start(port = 0): Promise<WebhookReceiver> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    const receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver.handle(req, res));
    return receiver;
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  /** The secret addOne returned for the endpoint at this path. */
  register(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  behave(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits until `count` requests arrived at the path (or anywhere, with '*'), or fails after timeoutMs. */
  async waitFor(path: string, count: number, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = path === '*' ? this.received : this.at(path);
      if (got.length >= count) return got;
      if (Date.now() > deadline) throw new Error(`receiver: ${got.length} of ${count} requests at ${path} after ${timeoutMs} ms: ${JSON.stringify(got.map((r) => r.payload.type))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?', 1)[0];
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = this.secrets.get(path);
      let verifyError: string | null = null;
      try {
        if (!secret) throw new Error('no endpoint registered at this path');
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
      } catch (error) {
        verifyError = error instanceof Error ? error.message : String(error);
      }
      let payload: Received['payload'];
      try {
        payload = JSON.parse(body) as Received['payload'];
      } catch {
        payload = { type: '(not JSON)', timestamp: '', data: {} };
      }
      const traceparent = typeof req.headers.traceparent === 'string' ? req.headers.traceparent : undefined;
      this.received.push({ path, id: String(req.headers['webhook-id']), body, payload, at: Date.now(), verifyError, ...(traceparent ? { traceparent } : {}) });
      const attempt = (this.attempts.get(path) ?? 0) + 1;
      this.attempts.set(path, attempt);
      const answer = (this.behaviours.get(path) ?? (() => 204))(attempt);
      if (answer === 'hang') {
        this.hanging.add(res);
        res.once('close', () => this.hanging.delete(res));
        return;
      }
      if (typeof answer === 'number') res.writeHead(answer).end();
      else setTimeout(() => res.writeHead(answer.status, answer.headers).end(), answer.delayMs ?? 0);
    });
  }
}
