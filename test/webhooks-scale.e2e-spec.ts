import { ENGINE } from '../src/config/engine';
import { ProfilesService } from '../src/profiles/profiles.service';
import { WebhookRelay } from '../src/webhooks/webhook-relay';
import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { WebhookReceiver } from './helpers/webhook-receiver';

const ENV = { WEBHOOK_ALLOW_LOCAL: 'true', ROOM_RATE_LIMIT_MAX: '100000', ROOM_LINK_RATE_LIMIT_MAX: '100000' };

/** Registers an endpoint at a fresh path of the receiver; returns its id and path. */
async function register(t: TestApp, admin: string, receiver: WebhookReceiver, orgID: string) {
  const path = `/hook/${uniq('p')}`;
  const res = await t.http.post('/v1/webhooks/addOne').set(bearer(admin)).send({ url: receiver.url(path), orgID }).expect(201);
  receiver.register(path, res.body.result.secret);
  return { webhookID: res.body.result.webhookID as string, path };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

(ENGINE === 'mysql' ? describe : describe.skip)('Two app instances on one database (MySQL/MariaDB only: the embedded database is one process)', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  let receiver: WebhookReceiver;
  let webhookID: string | undefined;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    a = await startApp(ENV);
    b = await startApp(ENV);
    admin = await adminToken(a);
  });

  afterAll(async () => {
    if (webhookID) await a.db.query('DELETE FROM webhooks WHERE id = ?', [webhookID]);
    await a.close();
    await b.close();
    await receiver.close();
  });

  it('delivers every event once: each due delivery is claimed by one instance (FOR UPDATE SKIP LOCKED)', async () => {
    const orgID = uniq('org');
    const hook = await register(a, admin, receiver, orgID);
    webhookID = hook.webhookID;
    const productID = await makeProduct(a, admin, { orgID });
    const sent = { a: 0, b: 0 };
    const relayA = a.app.get(WebhookRelay);
    const relayB = b.app.get(WebhookRelay);
    jest.spyOn(relayA, 'record').mockImplementation(function (this: WebhookRelay, ...args) {
      sent.a++;
      return WebhookRelay.prototype.record.apply(this, args);
    });
    jest.spyOn(relayB, 'record').mockImplementation(function (this: WebhookRelay, ...args) {
      sent.b++;
      return WebhookRelay.prototype.record.apply(this, args);
    });

    // 200 events written through both instances at once, while both relays are kept looking.
    const N = 200;
    const poke = setInterval(() => {
      relayA.wake();
      relayB.wake();
    }, 5);
    try {
      await Promise.all(Array.from({ length: N }, (_, i) => (i % 2 ? b : a).app.get(ProfilesService).create({ productIDs: [productID] })));
      await receiver.waitFor(hook.path, N, 30_000);
    } finally {
      clearInterval(poke);
    }
    await new Promise((r) => setTimeout(r, 500));

    const got = receiver.at(hook.path);
    const ids = got.map((r) => r.id);
    expect(got).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);
    expect(got.filter((r) => r.verifyError !== null)).toEqual([]);
    const [counts] = await a.db.query(
      "SELECT COUNT(*) AS deliveries, SUM(CASE WHEN status = 'delivered' THEN 1 ELSE 0 END) AS delivered, (SELECT COUNT(*) FROM webhook_attempts WHERE webhook_id = ?) AS attempts FROM webhook_deliveries WHERE webhook_id = ?",
      [hook.webhookID, hook.webhookID],
    );
    expect({ deliveries: Number(counts.deliveries), delivered: Number(counts.delivered), attempts: Number(counts.attempts) }).toEqual({ deliveries: N, delivered: N, attempts: N });
    process.stdout.write(`webhooks, two instances: ${N} events, each received once; sent by instance A: ${sent.a}, by instance B: ${sent.b}\n`);
    expect(sent.a + sent.b).toBe(N);
    expect(sent.a).toBeGreaterThan(0);
    expect(sent.b).toBeGreaterThan(0);
  }, 60_000);
});

describe(`Webhook delivery latency, from the change to the receiver (${ENGINE})`, () => {
  let t: TestApp;
  let admin: string;
  let receiver: WebhookReceiver;
  let webhookID: string | undefined;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startApp(ENV);
    admin = await adminToken(t);
  });

  afterAll(async () => {
    if (webhookID) await t.db.query('DELETE FROM webhooks WHERE id = ?', [webhookID]);
    await t.close();
    await receiver.close();
  });

  it('delivers 100 invite.started events promptly (woken by the commit, not by the poll)', async () => {
    const orgID = uniq('org');
    const hook = await register(t, admin, receiver, orgID);
    webhookID = hook.webhookID;
    const productID = await makeProduct(t, admin, { orgID });
    const interviewID = await makeInterview(t, admin, productID);
    const N = 100;
    const urls: string[] = (await t.http.get('/v1/invites/createInvites').query({ interviewID, count: N }).set(bearer(admin)).expect(200)).body.result;
    for (const url of urls) {
      await t.http.post(`${new URL(url).pathname}/start`).send({ name: 'Ada', email: 'ada@example.com', consent: true }).expect(200);
    }
    const got = await receiver.waitFor(hook.path, N, 30_000);
    // The payload's timestamp is the change's time (taken before its transaction commits); `at` is receipt.
    const latencies = got.map((r) => r.at - Date.parse(r.payload.timestamp)).sort((x, y) => x - y);
    const median = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    process.stdout.write(`webhooks latency (${ENGINE}): ${N} events, median ${median} ms, p99 ${p99} ms, max ${latencies[N - 1]} ms\n`);
    expect(got.filter((r) => r.verifyError !== null)).toEqual([]);
    // Sent by the poll alone (every 2 s), events would wait a second on average: a median this far under it
    // means commits woke the relay. The tail is only bounded, widely: on a busy machine a few events wait.
    expect(median).toBeLessThan(250);
    expect(p99).toBeLessThan(5_000);
  }, 60_000);
});
