import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ENGINE } from '../src/config/engine';
import { BuiltServer, freePort } from './helpers/built-server';
import { migratedDatabase } from './helpers/migrated-database';
import { WebhookReceiver } from './helpers/webhook-receiver';

/**
 * Durability of the outbox: the built server is killed with SIGKILL (no graceful stop, nothing
 * flushed) after an interview started and before its webhook was delivered; a new process on the
 * same database delivers it. Embedded database: a file of this suite's own, opened by one process
 * after the other. MySQL/MariaDB: the suite's database.
 */

jest.setTimeout(120_000);

describe('Webhook durability: a killed instance loses no event', () => {
  let dir: string;
  let databaseUrl: string;
  let db: DataSource;
  let token: string;
  const servers: BuiltServer[] = [];
  let receiver: WebhookReceiver | undefined;
  let webhookID: string | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'irs-durability-'));
    databaseUrl = ENGINE === 'mysql' ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'd.sqlite')}`;
    ({ db, token } = await migratedDatabase(databaseUrl, 'durability'));
  }, 100_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    if (webhookID) await db.query('DELETE FROM webhooks WHERE id = ?', [webhookID]);
    await db.destroy();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(server: BuiltServer, method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    const res = await fetch(new URL(path, server.base), {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json: any = await res.json();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.result;
  }

  it('delivers, from a new process, an event whose instance was killed before delivering it', async () => {
    const env = { DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_LOCAL: 'true' };
    const first = await BuiltServer.start(dir, env);
    servers.push(first);

    // The receiver's port is chosen now, but nothing listens there yet: the first attempt is refused.
    const receiverPort = await freePort();
    const orgID = `org_durable_${Date.now()}`;
    const hook = await call(first, 'POST', '/v1/webhooks/addOne', { url: `http://127.0.0.1:${receiverPort}/hook`, orgID });
    webhookID = hook.webhookID as string;
    const { productID } = await call(first, 'POST', '/v1/products/addOne', { name: 'Durable', orgID });
    const { interviewID } = await call(first, 'POST', '/v1/interviews/addOne', { productID, interviewName: 'Durable' });
    const [url] = await call(first, 'GET', `/v1/invites/createInvites?interviewID=${interviewID}&count=1`);
    const linkID = new URL(url as string).pathname.split('/').pop()!;
    const started = await fetch(new URL(`/i/${linkID}/start`, first.base), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', consent: true }),
    });
    expect(started.status).toBe(200);

    // Once the first attempt is on record (refused), the process dies without any chance to clean up.
    const attempts = async () => Number((await db.query('SELECT COUNT(*) AS n FROM webhook_attempts WHERE webhook_id = ?', [webhookID]))[0].n);
    for (let i = 0; i < 200 && (await attempts()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(first.child.kill('SIGKILL')).toBe(true);
    expect(await first.exited).toMatchObject({ code: null, signal: 'SIGKILL' });

    const [pending]: { id: string; status: string; event_type: string }[] = await db.query('SELECT id, status, event_type FROM webhook_deliveries WHERE webhook_id = ?', [webhookID]);
    expect(pending).toMatchObject({ status: 'pending', event_type: 'invite.started' });
    const [refused]: { error: string }[] = await db.query('SELECT error FROM webhook_attempts WHERE delivery_id = ?', [pending.id]);
    expect(refused.error).toMatch(/ECONNREFUSED/);

    receiver = await WebhookReceiver.start(receiverPort);
    receiver.register('/hook', hook.secret as string);
    const second = await BuiltServer.start(dir, env);
    servers.push(second);
    const [got] = await receiver.waitFor('/hook', 1, 15_000);
    expect(got).toMatchObject({ id: pending.id, verifyError: null, payload: { type: 'invite.started', data: { linkID, productID, orgID, status: 'started' } } });

    await new Promise((r) => setTimeout(r, 200));
    const [delivery] = await call(second, 'GET', `/v1/webhooks/getDeliveries?webhookID=${webhookID}`);
    expect(delivery).toMatchObject({ deliveryID: pending.id, status: 'delivered', attempts: [{ statusCode: null }, { statusCode: 204, error: null }] });
    second.child.kill('SIGTERM');
    expect(await second.exited).toMatchObject({ code: 0, signal: null });
  });
});
