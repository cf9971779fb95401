import { InvitesService } from '../src/invites/invites.service';
import { sqlDate } from '../src/database/column-types';
import { ProfilesService } from '../src/profiles/profiles.service';
import { TestApp, adminToken, bearer, expectError, registeredRoutes, scopedToken, startApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { waitFor } from './helpers/wait';
import { dbFingerprint } from './helpers/fingerprint';

/**
 * OWASP API1 (broken object-level authorization): every /v1 route, every identifier it takes,
 * called with a token of another organization. The table is checked against the routes the app
 * registers, so a new route without rows here fails this suite.
 */
interface Victim {
  reportID: string;
  orgID: string;
  userID: string;
  productID: string;
  interviewID: string;
  linkID: string;
  profileID: string;
  webhookID: string;
  deliveryID: string;
}
interface Mine {
  orgID: string;
  productID: string;
  interviewID: string;
}
interface Row {
  route: string; // "METHOD /path"
  identifier: string; // which identifier carries the foreign value, and where
  request: (v: Victim, m: Mine) => { query?: Record<string, unknown>; body?: Record<string, unknown> };
  /** 'same for every token': a list that is not per organization, answered as it is to an admin. */
  expect: 404 | 403 | 'empty list' | 'same for every token';
}

const rows: Row[] = [
  { route: 'POST /v1/products/addOne', identifier: 'body orgID', request: (v) => ({ body: { name: 'x', orgID: v.orgID } }), expect: 403 },
  { route: 'POST /v1/products/addOne', identifier: 'body userID', request: (v) => ({ body: { name: 'x', userID: v.userID } }), expect: 403 },
  { route: 'POST /v1/products/updateOne', identifier: 'body productID', request: (v) => ({ body: { productID: v.productID, name: 'stolen' } }), expect: 404 },
  { route: 'POST /v1/products/updateOne', identifier: 'body orgID', request: (v, m) => ({ body: { productID: m.productID, orgID: v.orgID } }), expect: 403 },
  { route: 'GET /v1/products/getOne', identifier: 'query productID', request: (v) => ({ query: { productID: v.productID } }), expect: 404 },
  { route: 'GET /v1/products/getList', identifier: 'query orgID', request: (v) => ({ query: { orgID: v.orgID } }), expect: 'empty list' },
  { route: 'GET /v1/products/getList', identifier: 'query userID', request: (v) => ({ query: { userID: v.userID } }), expect: 'empty list' },
  { route: 'POST /v1/interviews/addOne', identifier: 'body productID', request: (v) => ({ body: { productID: v.productID, interviewName: 'x' } }), expect: 404 },
  { route: 'POST /v1/interviews/updateOne', identifier: 'body interviewID', request: (v) => ({ body: { interviewID: v.interviewID, interviewName: 'x' } }), expect: 404 },
  { route: 'POST /v1/interviews/updateOne', identifier: 'body productID', request: (v, m) => ({ body: { interviewID: m.interviewID, productID: v.productID } }), expect: 404 },
  { route: 'GET /v1/interviews/getOne', identifier: 'query interviewID', request: (v) => ({ query: { interviewID: v.interviewID } }), expect: 404 },
  { route: 'GET /v1/interviews/getList', identifier: 'query productID', request: (v) => ({ query: { productID: v.productID } }), expect: 404 },
  { route: 'GET /v1/interviews/getQuestions', identifier: 'query interviewID', request: (v) => ({ query: { interviewID: v.interviewID } }), expect: 404 },
  { route: 'GET /v1/interviews/getAnswers', identifier: 'query interviewID', request: (v) => ({ query: { interviewID: v.interviewID } }), expect: 404 },
  { route: 'GET /v1/interviews/exportAnswers', identifier: 'query interviewID', request: (v) => ({ query: { interviewID: v.interviewID, format: 'csv' } }), expect: 404 },
  { route: 'GET /v1/invites/createInvites', identifier: 'query interviewID', request: (v) => ({ query: { interviewID: v.interviewID, count: 1 } }), expect: 404 },
  { route: 'GET /v1/invites/createInvites', identifier: 'query productID', request: (v, m) => ({ query: { interviewID: m.interviewID, productID: v.productID, count: 1 } }), expect: 404 },
  { route: 'GET /v1/invites/createInvites', identifier: 'query orgID', request: (v, m) => ({ query: { interviewID: m.interviewID, orgID: v.orgID, count: 1 } }), expect: 403 },
  { route: 'GET /v1/invites/getOne', identifier: 'query linkID', request: (v) => ({ query: { linkID: v.linkID } }), expect: 404 },
  { route: 'GET /v1/invites/getList', identifier: 'query interviewID', request: (v) => ({ query: { interviewID: v.interviewID } }), expect: 404 },
  { route: 'GET /v1/invites/getList', identifier: 'query productID', request: (v) => ({ query: { productID: v.productID } }), expect: 404 },
  { route: 'GET /v1/profiles/getOne', identifier: 'query profileID', request: (v) => ({ query: { profileID: v.profileID } }), expect: 404 },
  { route: 'GET /v1/profiles/getList', identifier: 'query productID', request: (v) => ({ query: { productID: v.productID } }), expect: 404 },
  { route: 'POST /v1/reports/addOne', identifier: 'body interviewID', request: (v) => ({ body: { interviewID: v.interviewID } }), expect: 404 },
  { route: 'GET /v1/reports/getOne', identifier: 'query reportID', request: (v) => ({ query: { reportID: v.reportID } }), expect: 404 },
  { route: 'GET /v1/reports/getList', identifier: 'query interviewID', request: (v) => ({ query: { interviewID: v.interviewID } }), expect: 404 },
  { route: 'POST /v1/reports/share', identifier: 'body reportID', request: (v) => ({ body: { reportID: v.reportID } }), expect: 404 },
  { route: 'POST /v1/reports/unshare', identifier: 'body reportID', request: (v) => ({ body: { reportID: v.reportID } }), expect: 404 },
  { route: 'GET /v1/reports/getCodes', identifier: 'query reportID', request: (v) => ({ query: { reportID: v.reportID } }), expect: 404 },
  { route: 'POST /v1/reports/toCodebook', identifier: 'body reportID', request: (v) => ({ body: { reportID: v.reportID } }), expect: 404 },
  { route: 'GET /v1/interviews/exportAnswers', identifier: 'query reportID', request: (v, m) => ({ query: { interviewID: m.interviewID, reportID: v.reportID, format: 'csv' } }), expect: 404 },
  { route: 'GET /v1/interviews/getCodebook', identifier: 'query interviewID', request: (v) => ({ query: { interviewID: v.interviewID } }), expect: 404 },
  { route: 'POST /v1/interviews/setCodebook', identifier: 'body interviewID', request: (v) => ({ body: { interviewID: v.interviewID, questions: [] } }), expect: 404 },
  { route: 'GET /v1/interviews/getRecruitment', identifier: 'query interviewID', request: (v) => ({ query: { interviewID: v.interviewID } }), expect: 404 },
  { route: 'POST /v1/interviews/setRecruitment', identifier: 'body interviewID', request: (v) => ({ body: { interviewID: v.interviewID, open: true } }), expect: 404 },
  { route: 'GET /v1/interviewers/getList', identifier: 'nothing (the agents are the service\'s, not an organization\'s)', request: () => ({}), expect: 'same for every token' },
  { route: 'GET /v1/interviewers/getModes', identifier: 'nothing (the modes are the service\'s, not an organization\'s)', request: () => ({}), expect: 'same for every token' },
  { route: 'GET /v1/invites/getAudio', identifier: 'query linkID', request: (v) => ({ query: { linkID: v.linkID, turnIndex: 2 } }), expect: 404 },
  { route: 'GET /v1/languages/getList', identifier: 'nothing (the languages are the service\'s, not an organization\'s)', request: () => ({}), expect: 'same for every token' },
  { route: 'POST /v1/webhooks/addOne', identifier: 'body orgID', request: (v) => ({ body: { url: 'https://93.184.215.14/hook', orgID: v.orgID } }), expect: 403 },
  { route: 'POST /v1/webhooks/addOne', identifier: 'body userID', request: (v) => ({ body: { url: 'https://93.184.215.14/hook', userID: v.userID } }), expect: 403 },
  { route: 'GET /v1/webhooks/getOne', identifier: 'query webhookID', request: (v) => ({ query: { webhookID: v.webhookID } }), expect: 404 },
  { route: 'GET /v1/webhooks/getList', identifier: 'query orgID', request: (v) => ({ query: { orgID: v.orgID } }), expect: 'empty list' },
  { route: 'GET /v1/webhooks/getList', identifier: 'query userID', request: (v) => ({ query: { userID: v.userID } }), expect: 'empty list' },
  { route: 'POST /v1/webhooks/deleteOne', identifier: 'body webhookID', request: (v) => ({ body: { webhookID: v.webhookID } }), expect: 404 },
  { route: 'GET /v1/webhooks/getDeliveries', identifier: 'query webhookID', request: (v) => ({ query: { webhookID: v.webhookID } }), expect: 404 },
  { route: 'POST /v1/webhooks/redeliver', identifier: 'body deliveryID', request: (v) => ({ body: { deliveryID: v.deliveryID } }), expect: 404 },
  { route: 'POST /v1/invites/revokeOne', identifier: 'body linkID', request: (v) => ({ body: { linkID: v.linkID } }), expect: 404 },
  { route: 'POST /v1/interviews/deleteOne', identifier: 'body interviewID', request: (v) => ({ body: { interviewID: v.interviewID, cascade: true } }), expect: 404 },
  { route: 'POST /v1/products/deleteOne', identifier: 'body productID', request: (v) => ({ body: { productID: v.productID, cascade: true } }), expect: 404 },
  { route: 'POST /v1/participants/erase', identifier: 'body orgID', request: (v) => ({ body: { email: 'victim@example.com', orgID: v.orgID } }), expect: 403 },
  { route: 'POST /v1/participants/erase', identifier: 'body userID', request: (v) => ({ body: { email: 'victim@example.com', userID: v.userID } }), expect: 403 },
  { route: 'POST /v1/participants/export', identifier: 'body orgID', request: (v) => ({ body: { email: 'victim@example.com', orgID: v.orgID } }), expect: 403 },
  { route: 'POST /v1/participants/export', identifier: 'body userID', request: (v) => ({ body: { email: 'victim@example.com', userID: v.userID } }), expect: 403 },
  { route: 'GET /v1/participants/getErasures', identifier: 'query orgID', request: (v) => ({ query: { orgID: v.orgID } }), expect: 'empty list' },
  { route: 'GET /v1/participants/getErasures', identifier: 'query userID', request: (v) => ({ query: { userID: v.userID } }), expect: 'empty list' },
];

/** Every /v1 route of the published interface. A route added to the app and not here fails this suite. */
const V1_ROUTES = [
  'POST /v1/products/addOne',
  'POST /v1/products/updateOne',
  'GET /v1/products/getOne',
  'GET /v1/products/getList',
  'POST /v1/interviews/addOne',
  'POST /v1/interviews/updateOne',
  'GET /v1/interviews/getOne',
  'GET /v1/interviews/getList',
  'GET /v1/interviews/getQuestions',
  'GET /v1/interviews/getAnswers',
  'GET /v1/interviews/exportAnswers',
  'GET /v1/invites/createInvites',
  'GET /v1/invites/getOne',
  'GET /v1/invites/getList',
  'GET /v1/profiles/getOne',
  'GET /v1/profiles/getList',
  'GET /v1/interviewers/getList',
  'GET /v1/interviewers/getModes',
  'GET /v1/invites/getAudio',
  'GET /v1/languages/getList',
  'POST /v1/reports/addOne',
  'GET /v1/reports/getOne',
  'GET /v1/reports/getList',
  'POST /v1/reports/share',
  'POST /v1/reports/unshare',
  'GET /v1/reports/getCodes',
  'POST /v1/reports/toCodebook',
  'GET /v1/interviews/getCodebook',
  'POST /v1/interviews/setCodebook',
  'GET /v1/interviews/getRecruitment',
  'POST /v1/interviews/setRecruitment',
  'POST /v1/webhooks/addOne',
  'GET /v1/webhooks/getOne',
  'GET /v1/webhooks/getList',
  'POST /v1/webhooks/deleteOne',
  'GET /v1/webhooks/getDeliveries',
  'POST /v1/webhooks/redeliver',
  'POST /v1/invites/revokeOne',
  'POST /v1/interviews/deleteOne',
  'POST /v1/products/deleteOne',
  'POST /v1/participants/erase',
  'POST /v1/participants/export',
  'GET /v1/participants/getErasures',
];

/** The identifiers in a list's rows. */
function idsIn(result: Record<string, unknown>[]): string[] {
  return result.flatMap((row) =>
    ['productID', 'interviewID', 'linkID', 'profileID', 'webhookID', 'deliveryID', 'reportID'].map((k) => row[k]).filter((v): v is string => typeof v === 'string'),
  );
}

describe('Object-level authorization across every route (OWASP API1)', () => {
  let t: TestApp;
  let victim: Victim;
  let mine: Mine;
  let intruder: string;
  let admin: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await adminToken(t);
    const orgID = uniq('victim');
    const userID = uniq('victim_user');
    const productID = await makeProduct(t, admin, { orgID, userID });
    const interviewID = await makeInterview(t, admin, productID);
    const [linkID] = await t.app.get(InvitesService).insertInvites({ interviewID, productID, orgID }, 2);
    const profileID = await t.app.get(ProfilesService).create({ productIDs: [productID], firstName: 'Victim' });
    // The victim's report is made before the victim has a webhook: nothing happens in the background while the table runs.
    const report = await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID });
    const reportID: string = report.body.result.reportID;
    await waitFor('the victim\'s report', async () => ((await t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(admin))).body.result.status === 'completed' ? true : undefined));
    const hook = await t.http.post('/v1/webhooks/addOne').set(bearer(admin)).send({ url: 'https://93.184.215.14/victim', orgID });
    const webhookID: string = hook.body.result.webhookID;
    // A delivery already made (an event sent earlier), so that no relay works on it while the table runs.
    const deliveryID = `${webhookID.slice(0, 24)}${'0'.repeat(12)}`;
    const at = sqlDate(new Date());
    await t.db.query(
      "INSERT INTO webhook_deliveries (id, webhook_id, event_type, payload, status, retry_step, next_attempt_at, claim_token, created_at, updated_at) VALUES (?, ?, 'profile.created', ?, 'delivered', 0, NULL, NULL, ?, ?)",
      [deliveryID, webhookID, JSON.stringify({ type: 'profile.created', timestamp: new Date().toISOString(), data: { profileID, productIDs: [productID] } }), at, at],
    );
    // An erasure in the victim's audit, so that an empty list of erasures means something.
    await t.http.post('/v1/participants/erase').set(bearer(admin)).send({ email: 'nobody@example.com', orgID }).expect(200);
    // A recording kept with the victim's invite, so that a 404 for it means something.
    await t.db.query("INSERT INTO invite_audio (link_id, turn_index, part, content_type, data, created_at) VALUES (?, 2, 0, 'audio/webm', ?, ?)", [linkID, Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), at]);
    await t.http.get('/v1/invites/getAudio').query({ linkID, turnIndex: 2 }).set(bearer(admin)).expect(200);
    victim = { reportID, orgID, userID, productID, interviewID, linkID, profileID, webhookID, deliveryID };

    const myOrg = uniq('intruder');
    intruder = await scopedToken(t, { orgID: myOrg, userID: uniq('intruder_user') });
    const myProduct = await makeProduct(t, intruder, { orgID: myOrg });
    mine = { orgID: myOrg, productID: myProduct, interviewID: await makeInterview(t, intruder, myProduct) };
  });

  afterAll(async () => {
    await t.db.query('DELETE FROM webhooks WHERE id = ?', [victim.webhookID]);
    await t.close();
  });

  it('has rows for every registered /v1 route', () => {
    expect(registeredRoutes(t).sort()).toEqual([...V1_ROUTES].sort());
    expect([...new Set(rows.map((r) => r.route))].sort()).toEqual([...V1_ROUTES].sort());
  });

  it.each(rows.map((r) => [r.route, r.identifier, r] as const))('%s with a foreign %s', async (route, _identifier, row) => {
    const [method, path] = route.split(' ');
    const { query, body } = row.request(victim, mine);
    const before = await dbFingerprint(t.db);
    const req = method === 'POST' ? t.http.post(path).send(body ?? {}) : t.http.get(path).query(query ?? {});
    const res = await req.set(bearer(intruder));
    if (row.expect === 'empty list') {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: [] });
    } else if (row.expect === 'same for every token') {
      expect(res.status).toBe(200);
      const asAdmin = await (method === 'POST' ? t.http.post(path).send(body ?? {}) : t.http.get(path).query(query ?? {})).set(bearer(admin));
      expect(res.body).toEqual(asAdmin.body);
      const victimValues: string[] = Object.values(victim);
      expect(victimValues.filter((id) => res.text.includes(id))).toEqual([]);
    } else {
      expectError(res, row.expect);
      // The message never names the victim's records beyond the identifier the caller sent.
      const sent = Object.values({ ...query, ...body }).map(String);
      const leaked = Object.values(victim).filter((id) => !sent.includes(id) && res.body.message.includes(id));
      expect(leaked).toEqual([]);
    }
    expect(await dbFingerprint(t.db)).toBe(before);
  });

  it('never lists foreign rows in any list, even with the victim\'s own filters', async () => {
    const lists = [
      t.http.get('/v1/products/getList').query({ orgID: victim.orgID, userID: victim.userID }),
      t.http.get('/v1/products/getList').query({ orgID: mine.orgID }),
      t.http.get('/v1/interviews/getList').query({ productID: mine.productID }),
      t.http.get('/v1/invites/getList').query({ interviewID: mine.interviewID }),
      t.http.get('/v1/profiles/getList').query({ productID: mine.productID }),
      t.http.get('/v1/webhooks/getList').query({ orgID: victim.orgID, userID: victim.userID }),
      t.http.get('/v1/webhooks/getList').query({ orgID: mine.orgID }),
    ];
    const victimIds: string[] = Object.values(victim);
    for (const req of lists) {
      const res = await req.set(bearer(intruder));
      expect(res.status).toBe(200);
      expect(idsIn(res.body.result).filter((id) => victimIds.includes(id))).toEqual([]);
    }
  });
});
