import { DataSource } from 'typeorm';
import { uuidv7 } from '../src/common/ids';
import { sqlDate } from '../src/database/column-types';
import { hashToken } from '../src/auth/token-cache';
import { TestApp, adminToken, bearer, expectError, startApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { dbFingerprint } from './helpers/fingerprint';
import { waitFor } from './helpers/wait';
import { WebhookReceiver } from './helpers/webhook-receiver';

const GUIDELINES = 'What do you use it for?\nWhat would you change?';

/** A scoped token stored as the token command stored them before it refused such scopes: the attacker's. */
async function legacyToken(db: DataSource, scope: { orgID?: string; userID?: string }): Promise<string> {
  const token = `irs_${uuidv7().replace(/-/g, '')}${'A'.repeat(11)}`;
  await db.query('INSERT INTO api_tokens (id, name, token_hash, is_admin, org_id, user_id, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)', [
    uuidv7(),
    'legacy padded scope',
    hashToken(token),
    0,
    scope.orgID ?? null,
    scope.userID ?? null,
    sqlDate(new Date()),
  ]);
  return token;
}

/**
 * Tenants kept apart on every engine: a token scoped to "orgB " (a trailing space) is another
 * organization than orgB. MySQL/MariaDB's padded binary collation once made the two equal in SQL while
 * our code compared exactly; identifier columns now compare without padding, and identifiers with
 * whitespace at an end are refused wherever they come in.
 */
describe('Identifiers compared exactly: the padded-organization attack', () => {
  let t: TestApp;
  let admin: string;
  let receiver: WebhookReceiver;
  const orgB = uniq('orgB');
  const userB = uniq('userB');
  const padded = `${orgB} `;
  const email = `bob.${uniq('b').slice(2)}@example.com`;
  let attacker: string;
  let victim: { productID: string; interviewID: string; linkID: string; reportID: string; webhookID: string };
  const hooks: string[] = [];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startApp({ WEBHOOK_ALLOW_LOCAL: 'true', REPORT_POLL_SECONDS: '1' });
    admin = await adminToken(t);
    const productID = await makeProduct(t, admin, { orgID: orgB, userID: userB, name: 'Beta Maps' });
    const interviewID = await makeInterview(t, admin, productID, { guidelines: GUIDELINES });
    const urls: string[] = (await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin)).expect(200)).body.result;
    const linkID = new URL(urls[0]).pathname.split('/').pop()!;
    await t.http.post(`/i/${linkID}/start`).send({ name: 'Bob Beta', email, consent: true }).expect(200);
    await t.http.post(`/i/${linkID}/reply`).send({ content: 'I plan the routes of our delivery vans with it every single morning.' }).expect(200);
    await t.http.post(`/i/${linkID}/end`).send({}).expect(200);
    const reportID: string = (await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID }).expect(201)).body.result.reportID;
    await waitFor('the victim\'s report', async () => ((await t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(admin))).body.result.status === 'completed' ? true : undefined), 20_000);
    const hook = await t.http.post('/v1/webhooks/addOne').set(bearer(admin)).send({ url: receiver.url('/victim'), orgID: orgB });
    hooks.push(hook.body.result.webhookID);
    receiver.register('/victim', hook.body.result.secret);
    victim = { productID, interviewID, linkID, reportID, webhookID: hook.body.result.webhookID };
    attacker = await legacyToken(t.db, { orgID: padded, userID: `${userB} ` });
  });

  afterAll(async () => {
    if (hooks.length) await t.db.query(`DELETE FROM webhooks WHERE id IN (${hooks.map(() => '?').join(', ')})`, hooks);
    await t.close();
    await receiver.close();
  });

  const get = (path: string, query: Record<string, unknown>, token = attacker) => t.http.get(path).query(query).set(bearer(token));
  const post = (path: string, body: Record<string, unknown>, token = attacker) => t.http.post(path).set(bearer(token)).send(body);

  it('reads nothing of orgB with a token scoped to "orgB "', async () => {
    const before = await dbFingerprint(t.db);
    // Lists filtered by orgB's own identifiers: the scope condition compares "orgB " with orgB in SQL.
    expect((await get('/v1/products/getList', { orgID: orgB })).body).toEqual({ result: [] });
    expect((await get('/v1/products/getList', { userID: userB })).body).toEqual({ result: [] });
    expect((await get('/v1/webhooks/getList', { orgID: orgB })).body).toEqual({ result: [] });
    expect((await get('/v1/participants/getErasures', { orgID: orgB })).body).toEqual({ result: [] });
    expectError(await get('/v1/products/getOne', { productID: victim.productID }), 404);
    expectError(await get('/v1/interviews/getOne', { interviewID: victim.interviewID }), 404);
    expectError(await get('/v1/invites/getOne', { linkID: victim.linkID }), 404);
    expectError(await get('/v1/invites/getList', { interviewID: victim.interviewID }), 404);
    expectError(await get('/v1/profiles/getList', { productID: victim.productID }), 404);
    expectError(await get('/v1/interviews/exportAnswers', { interviewID: victim.interviewID, format: 'csv' }), 404);
    expectError(await get('/v1/reports/getOne', { reportID: victim.reportID }), 404);
    expectError(await get('/v1/reports/getList', { interviewID: victim.interviewID }), 404);
    expectError(await get('/v1/webhooks/getOne', { webhookID: victim.webhookID }), 404);
    expect(await dbFingerprint(t.db)).toBe(before);
  });

  it('neither exports nor erases orgB\'s interviewee: orgB is out of scope, and "orgB " is refused', async () => {
    const before = await dbFingerprint(t.db);
    for (const path of ['/v1/participants/export', '/v1/participants/erase']) {
      expectError(await post(path, { email, orgID: orgB }), 403);
      expectError(await post(path, { email, orgID: padded }), 400, /orgID must not start or end with whitespace/);
      expectError(await post(path, { email, userID: `${userB} ` }), 400, /userID must not start or end with whitespace/);
    }
    expect(await dbFingerprint(t.db)).toBe(before);
    const exported = await post('/v1/participants/export', { email, orgID: orgB }, admin);
    expect(exported.body.result.invites.map((i: { linkID: string }) => i.linkID)).toEqual([victim.linkID]);
  });

  it('refuses identifiers with whitespace at an end on every route that takes them, writing nothing', async () => {
    const owner = await t.tokens.create({ orgID: uniq('own') });
    const before = await dbFingerprint(t.db);
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/v1/products/addOne', { name: 'Planted', orgID: padded }, 'orgID'],
      ['POST', '/v1/products/addOne', { name: 'Planted', userID: `\u00a0${userB}` }, 'userID'],
      ['GET', '/v1/products/getList', { orgID: padded }, 'orgID'],
      ['GET', '/v1/products/getOne', { productID: `${victim.productID} ` }, 'productID'],
      ['POST', '/v1/interviews/addOne', { productID: `${victim.productID}\t`, interviewName: 'x' }, 'productID'],
      ['GET', '/v1/invites/createInvites', { interviewID: victim.interviewID, count: 1, orgID: padded }, 'orgID'],
      ['GET', '/v1/invites/getOne', { linkID: ` ${victim.linkID}` }, 'linkID'],
      ['GET', '/v1/reports/getOne', { reportID: `${victim.reportID} ` }, 'reportID'],
      ['POST', '/v1/webhooks/addOne', { url: receiver.url('/planted'), orgID: padded }, 'orgID'],
      ['GET', '/v1/webhooks/getList', { orgID: padded }, 'orgID'],
      ['GET', '/v1/participants/getErasures', { orgID: padded }, 'orgID'],
    ];
    for (const [method, path, params, field] of cases) {
      for (const token of [attacker, owner.token, admin]) {
        const res = method === 'GET' ? await get(path, params, token) : await post(path, params, token);
        expectError(res, 400, new RegExp(`${field} must not start or end with whitespace`));
      }
    }
    expect(await dbFingerprint(t.db)).toBe(before);
  });

  it('keeps a product stored under "orgB " (before the rule) out of orgB\'s lists, and orgB\'s events away from an endpoint of "orgB "', async () => {
    const at = sqlDate(new Date());
    const planted = uuidv7();
    await t.db.query('INSERT INTO products (id, name, org_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [planted, 'Planted', padded, at, at]);
    const plantedHook = uuidv7();
    await t.db.query("INSERT INTO webhooks (id, url, secret, events, org_id, status, created_at, updated_at) VALUES (?, ?, 'whsec_x', NULL, ?, 'active', ?, ?)", [
      plantedHook,
      receiver.url('/planted'),
      padded,
      at,
      at,
    ]);
    hooks.push(plantedHook);

    const orgBList: { productID: string }[] = (await get('/v1/products/getList', { orgID: orgB }, admin)).body.result;
    expect(orgBList.map((p) => p.productID)).toEqual([victim.productID]);
    // The attacker sees what it planted under its own name only.
    expect((await get('/v1/products/getList', { orgID: padded.trim() })).body.result).toEqual([]);

    // An event of orgB: reaches orgB's endpoint, never the one stored under "orgB ".
    const urls: string[] = (await get('/v1/invites/createInvites', { interviewID: victim.interviewID, count: 1 }, admin)).body.result;
    const linkID = new URL(urls[0]).pathname.split('/').pop()!;
    await t.http.post(`/i/${linkID}/start`).send({ name: 'Carol Beta', email: 'carol@example.com', consent: true }).expect(200);
    await receiver.waitFor('/victim', 1);
    const deliveries = await t.db.query('SELECT webhook_id AS webhookID FROM webhook_deliveries WHERE webhook_id IN (?, ?)', [victim.webhookID, plantedHook]);
    expect(new Set(deliveries.map((d: { webhookID: string }) => d.webhookID))).toEqual(new Set([victim.webhookID]));
  });
});
