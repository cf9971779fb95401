import { ExpirySweeper } from '../src/invites/expiry-sweeper';
import { InvitesService } from '../src/invites/invites.service';
import { ProfilesService } from '../src/profiles/profiles.service';
import { WebhookRelay } from '../src/webhooks/webhook-relay';
import { sqlDate } from '../src/database/column-types';
import { TestApp, adminToken, bearer, expectError, scopedToken, startApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { dbFingerprint } from './helpers/fingerprint';
import { Behaviour, Received, WebhookReceiver } from './helpers/webhook-receiver';

const DAY = 86_400_000;
const LONG = 'It came up in a team meeting when we were comparing tools for research notes.';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Hook {
  webhookID: string;
  path: string;
  secret: string;
}

/**
 * A test app with a receiver and the helpers every webhook suite needs. Endpoints registered through
 * `hook` are deleted (with their deliveries) before the app closes, so no other suite's relay finds
 * leftovers of this one.
 */
function useWebhookApp(env: Record<string, string>) {
  const ctx = {} as {
    t: TestApp;
    admin: string;
    receiver: WebhookReceiver;
    hook(token: string, body: Record<string, unknown>, behaviour?: Behaviour): Promise<Hook>;
    deliveries(webhookID: string): Promise<any[]>;
    /** The endpoint's deliveries once `ready` holds for them (polled; 10 s at most). */
    until(webhookID: string, ready: (deliveries: any[]) => boolean): Promise<any[]>;
    webhook(webhookID: string): Promise<any>;
    setup(orgID: string, userID?: string): Promise<{ productID: string; interviewID: string; linkID: string }>;
    interview(linkID: string, email?: string): Promise<void>;
  };
  const created: string[] = [];

  beforeAll(async () => {
    ctx.receiver = await WebhookReceiver.start();
    ctx.t = await startApp(env);
    ctx.admin = await adminToken(ctx.t);
  });

  afterAll(async () => {
    if (created.length) await ctx.t.db.query(`DELETE FROM webhooks WHERE id IN (${created.map(() => '?').join(', ')})`, created);
    await ctx.t.close();
    await ctx.receiver.close();
  });

  ctx.hook = async (token, body, behaviour) => {
    const path = `/hook/${uniq('p')}`;
    const res = await ctx.t.http.post('/v1/webhooks/addOne').set(bearer(token)).send({ url: ctx.receiver.url(path), ...body });
    if (res.status !== 201) throw new Error(`addOne: ${res.status} ${JSON.stringify(res.body)}`);
    const { webhookID, secret } = res.body.result;
    created.push(webhookID);
    ctx.receiver.register(path, secret);
    if (behaviour) ctx.receiver.behave(path, behaviour);
    return { webhookID, path, secret };
  };
  ctx.deliveries = async (webhookID) => {
    const res = await ctx.t.http.get('/v1/webhooks/getDeliveries').query({ webhookID }).set(bearer(ctx.admin));
    expect(res.status).toBe(200);
    return res.body.result;
  };
  ctx.until = async (webhookID, ready) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = await ctx.deliveries(webhookID);
      if (ready(found)) return found;
      if (Date.now() > deadline) throw new Error(`deliveries of ${webhookID} never got there: ${JSON.stringify(found).slice(0, 500)}`);
      await sleep(25);
    }
  };
  ctx.webhook = async (webhookID) => (await ctx.t.http.get('/v1/webhooks/getOne').query({ webhookID }).set(bearer(ctx.admin)).expect(200)).body.result;
  ctx.setup = async (orgID, userID = uniq('owner')) => {
    const productID = await makeProduct(ctx.t, ctx.admin, { orgID, userID, name: 'Acme Notes' });
    const interviewID = await makeInterview(ctx.t, ctx.admin, productID, { guidelines: '1. How did you first hear about the product?' });
    const res = await ctx.t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(ctx.admin)).expect(200);
    return { productID, interviewID, linkID: new URL(res.body.result[0]).pathname.split('/').pop()! };
  };
  ctx.interview = async (linkID, email = 'ada@example.com') => {
    await ctx.t.http.post(`/i/${linkID}/start`).send({ name: 'Ada Lovelace', email, consent: true }).expect(200);
    await ctx.t.http.post(`/i/${linkID}/reply`).send({ content: LONG }).expect(200);
    await ctx.t.http.post(`/i/${linkID}/end`).send({}).expect(200);
  };
  return ctx;
}

const types = (got: Received[]) => got.map((r) => r.payload.type).sort();

describe('Webhook events', () => {
  const w = useWebhookApp({ WEBHOOK_ALLOW_LOCAL: 'true', WEBHOOK_RETRY_SCHEDULE: '0.4,0.4' });

  it('delivers invite.abandoned for an interview ended before any answer, and no profile event', async () => {
    const orgID = uniq('org');
    const mine = await w.hook(w.admin, { orgID });
    const { interviewID, productID, linkID } = await w.setup(orgID);
    await w.t.http.post(`/i/${linkID}/start`).send({ name: 'Ada Lovelace', email: 'ada@example.com', consent: true }).expect(200);
    await w.t.http.post(`/i/${linkID}/end`).send({}).expect(200);
    const got = await w.receiver.waitFor(mine.path, 2);
    expect(types(got)).toEqual(['invite.abandoned', 'invite.started']);
    const abandoned = got.find((r) => r.payload.type === 'invite.abandoned')!;
    expect(abandoned.payload.data).toEqual({ linkID, interviewID, productID, orgID, status: 'abandoned', completed_on: null });
  });

  it('delivers report.completed when a report is made, to the endpoints that see its product', async () => {
    const orgID = uniq('org');
    const mine = await w.hook(w.admin, { orgID, events: ['report.completed'] });
    const theirs = await w.hook(w.admin, { orgID: uniq('org') });
    const { interviewID, productID, linkID } = await w.setup(orgID);
    await w.interview(linkID);
    const { reportID } = (await w.t.http.post('/v1/reports/addOne').set(bearer(w.admin)).send({ interviewID }).expect(201)).body.result;
    const [got] = await w.receiver.waitFor(mine.path, 1);
    expect(got.verifyError).toBeNull();
    expect(got.payload).toEqual({ type: 'report.completed', timestamp: expect.stringMatching(/Z$/), data: { reportID, interviewID, productID, status: 'completed' } });
    const report = (await w.t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(w.admin))).body.result;
    expect(report.status).toBe('completed');
    expect(await w.deliveries(theirs.webhookID)).toEqual([]);
  });

  it("delivers an interview's invite.started, invite.completed and profile.created to the owner's endpoint, signed, and nothing to another organization's", async () => {
    const orgID = uniq('org');
    const mine = await w.hook(w.admin, { orgID });
    const theirs = await w.hook(w.admin, { orgID: uniq('org') });
    const { productID, interviewID, linkID } = await w.setup(orgID);
    await w.interview(linkID);

    const got = await w.receiver.waitFor(mine.path, 3);
    expect(types(got)).toEqual(['invite.completed', 'invite.started', 'profile.created']);
    expect(got.map((r) => r.verifyError)).toEqual([null, null, null]);
    const invite = (await w.t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(w.admin))).body.result;
    const [profile] = (await w.t.http.get('/v1/profiles/getList').query({ productID }).set(bearer(w.admin))).body.result;
    const byType = Object.fromEntries(got.map((r) => [r.payload.type, r.payload]));
    const inviteData = { linkID, interviewID, productID, orgID };
    expect(byType['invite.started']).toEqual({ type: 'invite.started', timestamp: expect.stringMatching(/Z$/), data: { ...inviteData, status: 'started', completed_on: null } });
    expect(byType['invite.completed']).toEqual({ type: 'invite.completed', timestamp: invite.completed_on, data: { ...inviteData, status: 'completed', completed_on: invite.completed_on } });
    expect(byType['profile.created']).toEqual({ type: 'profile.created', timestamp: invite.completed_on, data: { profileID: profile.profileID, productIDs: [productID] } });

    // webhook-id is the delivery's id; each delivery is recorded with its attempt (once the relay has recorded the answers).
    const deliveries = await w.until(mine.webhookID, (all) => all.length === 3 && all.every((d: any) => d.status === 'delivered'));
    expect(deliveries.map((d: any) => d.deliveryID).sort()).toEqual(got.map((r) => r.id).sort());
    for (const d of deliveries) {
      expect(d).toEqual({
        deliveryID: expect.any(String),
        webhookID: mine.webhookID,
        type: d.payload.type,
        status: 'delivered',
        created_on: d.payload.timestamp,
        next_attempt_on: null,
        attempts: [{ attempted_on: expect.stringMatching(/Z$/), statusCode: 204, error: null, durationMs: expect.any(Number) }],
        payload: byType[d.type],
      });
    }
    expect((await w.webhook(mine.webhookID)).lastDelivery).toEqual(expect.objectContaining({ statusCode: 204, error: null, type: expect.any(String) }));

    // Deliveries are written with the change that causes them: none for the other endpoint means none will ever be sent.
    expect(await w.deliveries(theirs.webhookID)).toEqual([]);
    expect(w.receiver.at(theirs.path)).toEqual([]);
  });

  it("sends profile.updated on the same person's second interview, each endpoint listing only the products its owner can see", async () => {
    const orgID = uniq('org');
    const second = uniq('user');
    const org = await w.hook(w.admin, { orgID });
    const user = await w.hook(w.admin, { userID: second });
    const a = await w.setup(orgID);
    const b = await w.setup(orgID, second);
    await w.interview(a.linkID, 'grace@example.com');
    await w.receiver.waitFor(org.path, 3);
    await w.interview(b.linkID, 'GRACE@example.com');

    const toOrg = await w.receiver.waitFor(org.path, 6);
    const toUser = await w.receiver.waitFor(user.path, 3);
    expect(types(toOrg)).toEqual(['invite.completed', 'invite.completed', 'invite.started', 'invite.started', 'profile.created', 'profile.updated']);
    // The user sees the second product only: its invite events and the update, not the first interview.
    expect(types(toUser)).toEqual(['invite.completed', 'invite.started', 'profile.updated']);
    const created = toOrg.find((r) => r.payload.type === 'profile.created')!.payload.data;
    expect(toOrg.find((r) => r.payload.type === 'profile.updated')!.payload.data).toEqual({ profileID: created.profileID, productIDs: [a.productID, b.productID] });
    expect(toUser.find((r) => r.payload.type === 'profile.updated')!.payload.data).toEqual({ profileID: created.profileID, productIDs: [b.productID] });
    expect([...toOrg, ...toUser].filter((r) => r.verifyError !== null)).toEqual([]);
  });

  it('sends only the event types an endpoint asked for', async () => {
    const orgID = uniq('org');
    const some = await w.hook(w.admin, { orgID, events: ['invite.completed'] });
    const all = await w.hook(w.admin, { orgID });
    expect((await w.webhook(some.webhookID)).events).toEqual(['invite.completed']);
    expect((await w.webhook(all.webhookID)).events).toEqual(['invite.started', 'invite.completed', 'invite.abandoned', 'invite.expired', 'invite.revoked', 'invite.screenedout', 'invite.overquota', 'invite.flagged', 'profile.created', 'profile.updated', 'report.completed', 'participant.erased']);
    const { linkID } = await w.setup(orgID);
    await w.interview(linkID);
    await w.receiver.waitFor(all.path, 3);
    const sent = await w.until(some.webhookID, (ds) => ds.length > 0 && ds.every((d) => d.status === 'delivered'));
    expect(sent.map((d) => d.type)).toEqual(['invite.completed']);
    expect(types(w.receiver.at(some.path))).toEqual(['invite.completed']);
  });

  it('sends invite.expired when a link is found past its time and when the sweep expires one', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID });
    const { productID, interviewID } = await w.setup(orgID);
    const overdue = () => w.t.app.get(InvitesService).insertInvites({ interviewID, productID, orgID }, 1, { createdAt: new Date(Date.now() - 2 * DAY), expiresInDays: 1 });
    const [opened] = await overdue();
    const [swept] = await overdue();
    expect((await w.t.http.get(`/i/${opened}/session`)).body.result.status).toBe('expired');
    await w.t.app.get(ExpirySweeper).sweep();
    const got = await w.receiver.waitFor(hook.path, 2);
    const expired = got.filter((r) => r.payload.type === 'invite.expired');
    expect(expired.map((r) => r.payload.data.linkID).sort()).toEqual([opened, swept].sort());
    expect(expired[0].payload.data).toMatchObject({ status: 'expired', completed_on: null });
  });

  it('sends profile.created for a profile made by the domain code (the demo data), not only by interviews', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID });
    const productID = await makeProduct(w.t, w.admin, { orgID });
    const profileID = await w.t.app.get(ProfilesService).create({ productIDs: [productID], firstName: 'Imported' });
    const [got] = await w.receiver.waitFor(hook.path, 1);
    expect(got.payload).toMatchObject({ type: 'profile.created', data: { profileID, productIDs: [productID] } });
  });

  it('retries a failing endpoint with the same webhook-id until it answers 2xx, recording every attempt', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID }, (attempt) => (attempt <= 2 ? 500 : 200));
    const productID = await makeProduct(w.t, w.admin, { orgID });
    await w.t.app.get(ProfilesService).create({ productIDs: [productID] });
    const got = await w.receiver.waitFor(hook.path, 3);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expect(got.map((r) => r.verifyError)).toEqual([null, null, null]);
    // The receiver answers before the relay records the answer: wait for the record, not for time.
    const [delivery] = await w.until(hook.webhookID, ([d]) => d?.status === 'delivered');
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([500, 500, 200]);
  });

  it('marks a delivery failed after the last step of the schedule', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID }, () => 503);
    await w.t.app.get(ProfilesService).create({ productIDs: [await makeProduct(w.t, w.admin, { orgID })] });
    await w.receiver.waitFor(hook.path, 3);
    const [delivery] = await w.until(hook.webhookID, ([d]) => d?.status === 'failed');
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_on: null });
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503]);
    expect(w.receiver.at(hook.path)).toHaveLength(3);
    expect((await w.webhook(hook.webhookID)).status).toBe('active');
  });

  it('disables an endpoint that answers 410 Gone, visibly in getOne and getList, and sends it nothing more', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID }, () => 410);
    const productID = await makeProduct(w.t, w.admin, { orgID });
    await w.t.app.get(ProfilesService).create({ productIDs: [productID] });
    await w.receiver.waitFor(hook.path, 1);
    await w.until(hook.webhookID, ([d]) => d?.status === 'failed');
    const one = await w.webhook(hook.webhookID);
    expect(one).toMatchObject({ status: 'disabled', disabledReason: expect.stringMatching(/410/), disabled_on: expect.stringMatching(/Z$/), lastDelivery: { statusCode: 410 } });
    const list = (await w.t.http.get('/v1/webhooks/getList').query({ orgID }).set(bearer(w.admin))).body.result;
    expect(list).toEqual([one]);
    const [delivery] = await w.deliveries(hook.webhookID);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ statusCode: 410 }] });
    expectError(await w.t.http.post('/v1/webhooks/redeliver').set(bearer(w.admin)).send({ deliveryID: delivery.deliveryID }), 409, /disabled/);

    await w.t.app.get(ProfilesService).create({ productIDs: [productID] });
    // No delivery was written for the disabled endpoint, so nothing more can be sent to it.
    expect(await w.deliveries(hook.webhookID)).toHaveLength(1);
    expect(w.receiver.at(hook.path)).toHaveLength(1);
  });

  it('does not follow a redirect: the answer counts as a failure and the target is never called', async () => {
    const orgID = uniq('org');
    const elsewhere = `/elsewhere/${uniq('p')}`;
    const hook = await w.hook(w.admin, { orgID }, () => ({ status: 302, headers: { Location: w.receiver.url(elsewhere) } }));
    await w.t.app.get(ProfilesService).create({ productIDs: [await makeProduct(w.t, w.admin, { orgID })] });
    await w.receiver.waitFor(hook.path, 3);
    const [delivery] = await w.until(hook.webhookID, ([d]) => d?.status === 'failed');
    expect(w.receiver.at(elsewhere)).toEqual([]);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 302, error: 'redirects are not followed' });
  });

  it('takes over a claim whose lease ran out (its instance died) and ignores that claim if it answers late', async () => {
    const orgID = uniq('org');
    // The first attempt hangs on for 1.5 s, as if its instance had frozen; the second is answered at once.
    const hook = await w.hook(w.admin, { orgID }, (attempt) => (attempt === 1 ? { status: 200, delayMs: 1500 } : 200));
    const relay = w.t.app.get(WebhookRelay);
    const record = jest.spyOn(relay, 'record');
    await w.t.app.get(ProfilesService).create({ productIDs: [await makeProduct(w.t, w.admin, { orgID })] });
    const [first] = await w.receiver.waitFor(hook.path, 1);
    // The lease ends now: the delivery is due again for any relay.
    await w.t.db.query('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?', [sqlDate(new Date(Date.now() - 1000)), first.id]);
    w.t.app.get(WebhookRelay).wake();
    const got = await w.receiver.waitFor(hook.path, 2);
    expect(got[1].id).toBe(first.id);
    // Until the late answer of the lapsed claim has been handled too (record() called for both attempts).
    const deadline = Date.now() + 10_000;
    while (record.mock.calls.filter(([d]) => d.deliveryID === first.id).length < 2 && Date.now() < deadline) await sleep(25);
    await Promise.all(record.mock.results.map((r) => r.value));
    record.mockRestore();
    const [delivery] = await w.deliveries(hook.webhookID);
    expect(delivery.status).toBe('delivered');
    // Only the claim that still held was recorded.
    expect(delivery.attempts).toHaveLength(1);
  });

  it('redelivers a delivery with the same webhook-id and body, and records the new attempt', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID });
    await w.t.app.get(ProfilesService).create({ productIDs: [await makeProduct(w.t, w.admin, { orgID })] });
    const [first] = await w.receiver.waitFor(hook.path, 1);
    await w.until(hook.webhookID, ([d]) => d?.status === 'delivered');
    const res = await w.t.http.post('/v1/webhooks/redeliver').set(bearer(w.admin)).send({ deliveryID: first.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { deliveryID: first.id, status: 'pending' } });
    const [, again] = await w.receiver.waitFor(hook.path, 2);
    expect({ id: again.id, body: again.body, verifyError: again.verifyError }).toEqual({ id: first.id, body: first.body, verifyError: null });
    const [delivery] = await w.until(hook.webhookID, ([d]) => d?.attempts.length === 2 && d.status === 'delivered');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 204 }, { statusCode: 204 }] });
  });

  it('pages getDeliveries with limit and cursor, oldest first, each delivery once', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID });
    const productID = await makeProduct(w.t, w.admin, { orgID });
    for (let i = 0; i < 5; i++) await w.t.app.get(ProfilesService).create({ productIDs: [productID] });
    await w.receiver.waitFor(hook.path, 5);
    const all = (await w.deliveries(hook.webhookID)).map((d: any) => d.deliveryID);
    expect(all).toHaveLength(5);
    const paged: string[] = [];
    let url: string | undefined = `/v1/webhooks/getDeliveries?webhookID=${hook.webhookID}&limit=2`;
    while (url) {
      const res = await w.t.http.get(url).set(bearer(w.admin)).expect(200);
      expect(res.body.result.length).toBeLessThanOrEqual(2);
      paged.push(...res.body.result.map((d: any) => d.deliveryID));
      const link = res.headers.link as string | undefined;
      url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
    }
    expect(paged).toEqual(all);
    expect([...all].sort()).toEqual(all);
    expectError(await w.t.http.get('/v1/webhooks/getDeliveries').query({ webhookID: hook.webhookID, limit: 0 }).set(bearer(w.admin)), 400, /limit/);
  });

  it('deletes an endpoint with its deliveries: nothing more is sent, and its records are gone', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID });
    const productID = await makeProduct(w.t, w.admin, { orgID });
    await w.t.app.get(ProfilesService).create({ productIDs: [productID] });
    const [first] = await w.receiver.waitFor(hook.path, 1);
    await w.until(hook.webhookID, ([d]) => d?.status === 'delivered');
    const res = await w.t.http.post('/v1/webhooks/deleteOne').set(bearer(w.admin)).send({ webhookID: hook.webhookID });
    expect(res.body).toEqual({ result: { webhookID: hook.webhookID, status: 'deleted' } });
    expectError(await w.t.http.get('/v1/webhooks/getOne').query({ webhookID: hook.webhookID }).set(bearer(w.admin)), 404);
    expectError(await w.t.http.get('/v1/webhooks/getDeliveries').query({ webhookID: hook.webhookID }).set(bearer(w.admin)), 404);
    expectError(await w.t.http.post('/v1/webhooks/redeliver').set(bearer(w.admin)).send({ deliveryID: first.id }), 404);
    expectError(await w.t.http.post('/v1/webhooks/deleteOne').set(bearer(w.admin)).send({ webhookID: hook.webhookID }), 404);
    const [left] = await w.t.db.query('SELECT (SELECT COUNT(*) FROM webhook_deliveries WHERE webhook_id = ?) + (SELECT COUNT(*) FROM webhook_attempts WHERE webhook_id = ?) AS n', [
      hook.webhookID,
      hook.webhookID,
    ]);
    expect(Number(left.n)).toBe(0);
    await w.t.app.get(ProfilesService).create({ productIDs: [productID] });
    // The endpoint is gone, so no delivery was written for it: nothing more can be sent.
    const [after] = await w.t.db.query('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?', [hook.webhookID]);
    expect(Number(after.n)).toBe(0);
    expect(w.receiver.at(hook.path)).toHaveLength(1);
  });
});

describe('Webhooks: an endpoint that does not answer (WEBHOOK_TIMEOUT_MS shortened to 1 s)', () => {
  const w = useWebhookApp({ WEBHOOK_ALLOW_LOCAL: 'true', WEBHOOK_RETRY_SCHEDULE: '0.2', WEBHOOK_TIMEOUT_MS: '1000' });

  it('abandons an attempt that gets no answer within the timeout, records it with an error, and retries', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID }, (attempt) => (attempt === 1 ? 'hang' : 200));
    const started = Date.now();
    await w.t.app.get(ProfilesService).create({ productIDs: [await makeProduct(w.t, w.admin, { orgID })] });
    const got = await w.receiver.waitFor(hook.path, 2, 5_000);
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(1_000);
    expect(got[1].id).toBe(got[0].id);
    const [delivery] = await w.until(hook.webhookID, ([d]) => d?.status === 'delivered');
    expect(delivery.attempts[0]).toEqual({ attempted_on: expect.any(String), statusCode: null, error: expect.stringMatching(/no answer within 1 s/), durationMs: expect.any(Number) });
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(1_000);
    // Wide bounds: the point is that the 1 s timeout ends the attempt, not how fast a busy machine is.
    expect(delivery.attempts[0].durationMs).toBeLessThan(5_000);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('Webhooks: the API', () => {
  const w = useWebhookApp({ WEBHOOK_ALLOW_LOCAL: 'true' });

  it('answers addOne with 201, the id and a whsec_ secret shown only once; reads show everything else', async () => {
    const orgID = uniq('org');
    const res = await w.t.http.post('/v1/webhooks/addOne').set(bearer(w.admin)).send({ url: w.receiver.url('/once'), orgID });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ result: { webhookID: expect.stringMatching(/^[0-9a-f-]{36}$/), secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) } });
    const { webhookID, secret } = res.body.result;
    const one = await w.webhook(webhookID);
    expect(one).toEqual({
      webhookID,
      url: w.receiver.url('/once'),
      events: ['invite.started', 'invite.completed', 'invite.abandoned', 'invite.expired', 'invite.revoked', 'invite.screenedout', 'invite.overquota', 'invite.flagged', 'profile.created', 'profile.updated', 'report.completed', 'participant.erased'],
      orgID,
      userID: null,
      status: 'active',
      disabledReason: null,
      disabled_on: null,
      created_on: expect.stringMatching(/Z$/),
      lastDelivery: null,
    });
    const list = await w.t.http.get('/v1/webhooks/getList').query({ orgID }).set(bearer(w.admin));
    expect(list.body).toEqual({ result: [one] });
    expect(JSON.stringify([one, list.body])).not.toContain(secret.slice(6));
    await w.t.http.post('/v1/webhooks/deleteOne').set(bearer(w.admin)).send({ webhookID }).expect(200);
  });

  it('applies the owner rules of products: a scoped token works within its own org or user, 403 outside it, 404 for foreign ids', async () => {
    const orgID = uniq('org');
    const userID = uniq('user');
    const token = await scopedToken(w.t, { orgID });
    const userToken = await scopedToken(w.t, { userID });
    const other = await scopedToken(w.t, { orgID: uniq('org') });
    const mine = await w.hook(token, { orgID });
    const mineByUser = await w.hook(userToken, { userID });
    await w.t.http.get('/v1/webhooks/getOne').query({ webhookID: mine.webhookID }).set(bearer(token)).expect(200);
    await w.t.http.get('/v1/webhooks/getOne').query({ webhookID: mineByUser.webhookID }).set(bearer(userToken)).expect(200);

    const before = await dbFingerprint(w.t.db);
    expectError(await w.t.http.post('/v1/webhooks/addOne').set(bearer(token)).send({ url: w.receiver.url('/x'), orgID: uniq('org') }), 403, /webhook/);
    expectError(await w.t.http.post('/v1/webhooks/addOne').set(bearer(token)).send({ url: w.receiver.url('/x'), userID }), 403);
    expectError(await w.t.http.post('/v1/webhooks/addOne').set(bearer(userToken)).send({ url: w.receiver.url('/x'), orgID }), 403);
    expectError(await w.t.http.get('/v1/webhooks/getOne').query({ webhookID: mine.webhookID }).set(bearer(other)), 404, /webhook/);
    expectError(await w.t.http.get('/v1/webhooks/getOne').query({ webhookID: mine.webhookID }).set(bearer(userToken)), 404);
    expectError(await w.t.http.get('/v1/webhooks/getDeliveries').query({ webhookID: mine.webhookID }).set(bearer(other)), 404);
    expectError(await w.t.http.post('/v1/webhooks/deleteOne').set(bearer(other)).send({ webhookID: mine.webhookID }), 404);
    expect((await w.t.http.get('/v1/webhooks/getList').query({ orgID }).set(bearer(other))).body).toEqual({ result: [] });
    expect(await dbFingerprint(w.t.db)).toBe(before);

    const listed = await w.t.http.get('/v1/webhooks/getList').query({ orgID }).set(bearer(token));
    expect(listed.body.result.map((h: any) => h.webhookID)).toEqual([mine.webhookID]);
    await w.t.app.get(ProfilesService).create({ productIDs: [await makeProduct(w.t, w.admin, { orgID })] });
    const [got] = await w.receiver.waitFor(mine.path, 1);
    expectError(await w.t.http.post('/v1/webhooks/redeliver').set(bearer(other)).send({ deliveryID: got.id }), 404, /delivery/);
    await w.until(mine.webhookID, ([d]) => d?.status === 'delivered');
    await w.t.http.post('/v1/webhooks/redeliver').set(bearer(token)).send({ deliveryID: got.id }).expect(200);
    await w.t.http.post('/v1/webhooks/deleteOne').set(bearer(token)).send({ webhookID: mine.webhookID }).expect(200);
  });

  it('lists by orgID and/or userID (AND), oldest first, paged like every list', async () => {
    const orgID = uniq('org');
    const userID = uniq('user');
    const a = await w.hook(w.admin, { orgID });
    const b = await w.hook(w.admin, { orgID, userID });
    const c = await w.hook(w.admin, { orgID });
    const ids = async (query: Record<string, string>) => (await w.t.http.get('/v1/webhooks/getList').query(query).set(bearer(w.admin))).body.result.map((h: any) => h.webhookID);
    expect(await ids({ orgID })).toEqual([a.webhookID, b.webhookID, c.webhookID]);
    expect(await ids({ orgID, userID })).toEqual([b.webhookID]);
    expect(await ids({ userID })).toEqual([b.webhookID]);
    const first = await w.t.http.get('/v1/webhooks/getList').query({ orgID, limit: 2 }).set(bearer(w.admin));
    expect(first.body.result.map((h: any) => h.webhookID)).toEqual([a.webhookID, b.webhookID]);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.link)![1];
    expect((await w.t.http.get(next).set(bearer(w.admin))).body.result.map((h: any) => h.webhookID)).toEqual([c.webhookID]);
    expectError(await w.t.http.get('/v1/webhooks/getList').set(bearer(w.admin)), 400, /at least one of orgID, userID/);
  });

  it.each<[string, unknown, RegExp]>([
    ['no url', { orgID: 'o' }, /url is required/],
    ['a null url', { url: null, orgID: 'o' }, /url/],
    ['a url that is not a URL', { url: 'hooks.example.com/x', orgID: 'o' }, /url must be an absolute http\(s\) URL/],
    ['an ftp url', { url: 'ftp://hooks.example.com/x', orgID: 'o' }, /url must be an absolute http\(s\) URL/],
    ['a url over 2,048 characters', { url: `https://hooks.example.com/${'x'.repeat(2048)}`, orgID: 'o' }, /url must be at most 2048/],
    ['a number for url', { url: 42, orgID: 'o' }, /url/],
    ['no owner', { url: 'https://hooks.example.com/x' }, /at least one of orgID, userID/],
    ['an unknown event', { url: 'https://hooks.example.com/x', orgID: 'o', events: ['invite.deleted'] }, /events must list/],
    ['no events', { url: 'https://hooks.example.com/x', orgID: 'o', events: [] }, /events must list/],
    ['a repeated event', { url: 'https://hooks.example.com/x', orgID: 'o', events: ['invite.started', 'invite.started'] }, /events must list/],
    ['events as a string', { url: 'https://hooks.example.com/x', orgID: 'o', events: 'invite.started' }, /events must list/],
    ['an unknown field', { url: 'https://hooks.example.com/x', orgID: 'o', secret: 'mine' }, /unknown field "secret"/],
    ['a NUL in the orgID', { url: 'https://hooks.example.com/x', orgID: 'o\u0000' }, /NUL/],
  ])('refuses addOne with %s (400) and writes nothing', async (_case, body, message) => {
    const before = await dbFingerprint(w.t.db);
    expectError(await w.t.http.post('/v1/webhooks/addOne').set(bearer(w.admin)).send(body as object), 400, message);
    expect(await dbFingerprint(w.t.db)).toBe(before);
  });

  it('refuses bad input on the other routes like every /v1 route', async () => {
    expectError(await w.t.http.get('/v1/webhooks/getOne').set(bearer(w.admin)), 400, /webhookID is required/);
    expectError(await w.t.http.get('/v1/webhooks/getOne').query({ webhookID: 'x', extra: '1' }).set(bearer(w.admin)), 400, /unknown field "extra"/);
    expectError(await w.t.http.get('/v1/webhooks/getOne?webhookID=a&webhookID=b').set(bearer(w.admin)), 400);
    expectError(await w.t.http.get('/v1/webhooks/getOne').query({ webhookID: 'no-such-webhook' }).set(bearer(w.admin)), 404, /webhook "no-such-webhook" not found/);
    expectError(await w.t.http.get('/v1/webhooks/getDeliveries').set(bearer(w.admin)), 400, /webhookID is required/);
    expectError(await w.t.http.post('/v1/webhooks/deleteOne').set(bearer(w.admin)).send({}), 400, /webhookID is required/);
    expectError(await w.t.http.post('/v1/webhooks/redeliver').set(bearer(w.admin)).send({ deliveryID: 'no-such-delivery' }), 404, /delivery/);
    expectError(await w.t.http.post('/v1/webhooks/redeliver').set(bearer(w.admin)).send({ deliveryID: 7 }), 400, /deliveryID/);
    expectError(await w.t.http.post('/v1/webhooks/redeliver').set(bearer(w.admin)).set('Content-Type', 'text/plain').send('{}'), 415);
  });

  it('documents the routes with request examples that need nothing optional', async () => {
    const doc = (await w.t.http.get('/docs-json')).body;
    const add = doc.paths['/v1/webhooks/addOne'].post;
    expect(add.tags).toEqual(['webhooks']);
    expect(Object.values<any>(add.requestBody.content['application/json'].examples)[0].value).toEqual({ url: 'https://hooks.acme.example/irs', orgID: 'org_acme' });
    expect(doc.components.schemas.CreateWebhookDto).toMatchObject({ required: ['url'], additionalProperties: false, anyOf: [{ required: ['orgID'] }, { required: ['userID'] }] });
    expect(doc.components.schemas.WebhookCreatedDto.properties.secret.example).toMatch(/^whsec_/);
    expect(doc.paths['/v1/webhooks/getDeliveries'].get.parameters.map((p: any) => p.name).sort()).toEqual(['cursor', 'limit', 'webhookID']);
    expect(doc.components.schemas.DeliveryDto.properties.payload).toBeDefined();
  });
});

describe('Webhooks: targets refused at registration (SSRF), without WEBHOOK_ALLOW_LOCAL', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startApp({ WEBHOOK_ALLOW_LOCAL: 'false' });
    admin = await adminToken(t);
  });

  afterAll(() => t.close());

  it.each<[string, string, RegExp]>([
    ['loopback', 'https://127.0.0.1/hook', /loopback/],
    ['loopback, written as a number', 'https://2130706433/hook', /loopback/],
    ['IPv6 loopback', 'https://[::1]/hook', /loopback/],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['private (10/8)', 'https://10.1.2.3/hook', /private/],
    ['private (172.16/12)', 'https://172.20.0.1/hook', /private/],
    ['private (192.168/16)', 'https://192.168.0.10/hook', /private/],
    ['link-local', 'https://169.254.10.10/hook', /link-local/],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/', /metadata/],
    ['cloud metadata (AWS IPv6)', 'https://[fd00:ec2::254]/', /metadata/],
    ['cloud metadata by name', 'https://metadata.google.internal/computeMetadata/v1/', /metadata/],
    ['unique-local IPv6', 'https://[fd12::1]/hook', /unique-local/],
    ['unspecified', 'https://0.0.0.0/hook', /unspecified/],
    ['http', 'http://hooks.example.com/hook', /https only/],
    ['a name resolving to a private address', 'https://localhost/hook', /resolves to a loopback address/],
    ['a name that does not resolve', 'https://no-such-host.invalid/hook', /does not resolve/],
  ])('refuses %s (400) and writes nothing', async (_case, url, reason) => {
    const before = await dbFingerprint(t.db);
    const res = await t.http.post('/v1/webhooks/addOne').set(bearer(admin)).send({ url, orgID: uniq('org') });
    expectError(res, 400, reason);
    expect(res.body.message).toMatch(/^url is refused: /);
    expect(await dbFingerprint(t.db)).toBe(before);
  });

  it('accepts a public https address', async () => {
    const res = await t.http.post('/v1/webhooks/addOne').set(bearer(admin)).send({ url: 'https://93.184.215.14/hook', orgID: uniq('org') });
    expect(res.status).toBe(201);
    await t.http.post('/v1/webhooks/deleteOne').set(bearer(admin)).send({ webhookID: res.body.result.webhookID }).expect(200);
  });

  it('checks again when sending: a name that now resolves to a loopback address is refused by the relay, which connects nowhere', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const orgID = uniq('org');
      // As if the name had resolved to a public address at registration and to 127.0.0.1 now.
      const webhookID = '019a9b10-0000-7000-8000-' + Date.now().toString(16).padStart(12, '0').slice(-12);
      const now = sqlDate(new Date());
      await t.db.query(
        "INSERT INTO webhooks (id, url, events, org_id, user_id, secret, status, created_at, updated_at) VALUES (?, ?, NULL, ?, NULL, 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdHRlc3Q=', 'active', ?, ?)",
        [webhookID, receiver.url('/ssrf').replace('http://127.0.0.1', 'https://localhost'), orgID, now, now],
      );
      try {
        await t.app.get(ProfilesService).create({ productIDs: [await makeProduct(t, admin, { orgID })] });
        let attempts: any[] = [];
        for (let i = 0; i < 100 && attempts.length === 0; i++) {
          await sleep(50);
          attempts = (await t.http.get('/v1/webhooks/getDeliveries').query({ webhookID }).set(bearer(admin))).body.result[0]?.attempts ?? [];
        }
        expect(attempts[0]).toMatchObject({ statusCode: null, error: 'refused: the host resolves to a loopback address; webhooks go to public addresses only' });
        expect(receiver.received).toEqual([]);
      } finally {
        await t.db.query('DELETE FROM webhooks WHERE id = ?', [webhookID]);
      }
    } finally {
      await receiver.close();
    }
  });
});

describe('Webhooks with the real retry schedule', () => {
  const w = useWebhookApp({ WEBHOOK_ALLOW_LOCAL: 'true' });

  it('sends the same webhook-id again about 5 s after a failure, and the endpoint recovers', async () => {
    const orgID = uniq('org');
    const hook = await w.hook(w.admin, { orgID }, (attempt) => (attempt === 1 ? 500 : 200));
    await w.t.app.get(ProfilesService).create({ productIDs: [await makeProduct(w.t, w.admin, { orgID })] });
    const [first, second] = await w.receiver.waitFor(hook.path, 2, 12_000);
    expect(second.id).toBe(first.id);
    expect(second.body).toBe(first.body);
    expect(second.verifyError).toBeNull();
    const gap = second.at - first.at;
    process.stdout.write(`webhooks: retry after a 500 arrived ${gap} ms after the first attempt (schedule: 5 s ±10%)\n`);
    expect(gap).toBeGreaterThanOrEqual(4_500);
    expect(gap).toBeLessThan(6_000);
    const [delivery] = await w.until(hook.webhookID, ([d]) => d?.status === 'delivered');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 500 }, { statusCode: 200 }] });
  }, 20_000);
});
