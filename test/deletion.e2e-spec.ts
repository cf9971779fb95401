import { TestApp, bearer, expectError, scopedToken, tableCounts, uniq, useTestApp } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { dbFingerprint } from './helpers/fingerprint';
import { waitFor } from './helpers/wait';

const GUIDELINES = '1. What do you use Acme Notes for?';

describe('Revoking links and deleting interviews and products', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app), { REPORT_POLL_SECONDS: '1' });

  const post = (path: string, body: Record<string, unknown>, token = admin) => t.http.post(path).set(bearer(token)).send(body);
  const get = (path: string, query: Record<string, unknown>, token = admin) => t.http.get(path).query(query).set(bearer(token));

  async function links(interviewID: string, count: number): Promise<string[]> {
    const res = await get('/v1/invites/createInvites', { interviewID, count });
    return (res.body.result as string[]).map((url) => new URL(url).pathname.split('/').pop()!);
  }

  /** An interview taken to completion by one interviewee. */
  async function interviewed(linkID: string, email: string): Promise<void> {
    await t.http.post(`/i/${linkID}/start`).send({ name: 'Ada Lovelace', email, consent: true }).expect(200);
    await t.http.post(`/i/${linkID}/reply`).send({ content: 'I use it for meeting notes with my whole team every single week.' }).expect(200);
    const last = await t.http.post(`/i/${linkID}/reply`).send({ content: 'No, nothing else to add from my side today.' }).expect(200);
    expect(last.body.result.status).toBe('completed');
  }

  async function completedReport(interviewID: string): Promise<string> {
    const reportID = (await post('/v1/reports/addOne', { interviewID })).body.result.reportID as string;
    await waitFor('report completed', async () => ((await get('/v1/reports/getOne', { reportID })).body.result.status === 'completed' ? true : undefined), 20_000);
    return reportID;
  }

  describe('POST /v1/invites/revokeOne', () => {
    it('withdraws a pending and a started link; the room then says the link is no longer active and takes nothing', async () => {
      const orgID = uniq('org');
      const productID = await makeProduct(t, admin, { orgID, name: 'Acme Notes' });
      const interviewID = await makeInterview(t, admin, productID, { guidelines: GUIDELINES });
      const [pending, started] = await links(interviewID, 2);
      await t.http.post(`/i/${started}/start`).send({ name: 'Ada', email: 'ada@example.com', consent: true }).expect(200);

      for (const linkID of [pending, started]) {
        const res = await post('/v1/invites/revokeOne', { linkID });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ result: { linkID, status: 'revoked' } });
        expect((await get('/v1/invites/getOne', { linkID })).body.result.status).toBe('revoked');
      }
      // The team keeps the transcript so far; the link shows nothing of it.
      expect((await get('/v1/invites/getOne', { linkID: started })).body.result.conversation.length).toBeGreaterThan(0);
      const session = await t.http.get(`/i/${started}/session`);
      expect(session.body.result).toMatchObject({ status: 'revoked', conversation: [] });
      const page = await t.http.get(`/i/${started}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('This link is no longer active');
      // No answer box: the page's script messages may mention answers, the page offers no way to give one.
      expect(page.text).not.toContain('<textarea');
      expectError(await t.http.post(`/i/${started}/reply`).send({ content: 'still there?' }), 409, /revoked/);
      expectError(await t.http.post(`/i/${pending}/start`).send({ name: 'Ada', email: 'ada@example.com', consent: true }), 409, /revoked/);
    });

    it('answers 409 for a link that is no longer pending or started, and writes nothing', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID, { guidelines: GUIDELINES });
      const [done, revoked] = await links(interviewID, 2);
      await interviewed(done, 'grace@example.com');
      await post('/v1/invites/revokeOne', { linkID: revoked }).expect(200);
      const before = await dbFingerprint(t.db);
      expectError(await post('/v1/invites/revokeOne', { linkID: done }), 409, /invite is completed; only a pending or started invite can be revoked/);
      expectError(await post('/v1/invites/revokeOne', { linkID: revoked }), 409, /invite is revoked/);
      expect(await dbFingerprint(t.db)).toBe(before);
    });

    it('expires a link past its time instead (409), and 404s links the caller cannot see', async () => {
      const orgID = uniq('org');
      const productID = await makeProduct(t, admin, { orgID });
      const interviewID = await makeInterview(t, admin, productID);
      const [linkID] = await links(interviewID, 1);
      await t.db.query("UPDATE invites SET expires_on = '2020-01-01 00:00:00.000' WHERE link_id = ?", [linkID]);
      expectError(await post('/v1/invites/revokeOne', { linkID }), 409, /invite is expired/);
      expect((await get('/v1/invites/getOne', { linkID })).body.result.status).toBe('expired');
      const [other] = await links(interviewID, 1);
      expectError(await post('/v1/invites/revokeOne', { linkID: other }, await scopedToken(t, { orgID: uniq('org') })), 404);
      expectError(await post('/v1/invites/revokeOne', { linkID: 'nope' }), 404);
      expect((await get('/v1/invites/getOne', { linkID: other })).body.result.status).toBe('pending');
    });
  });

  describe('POST /v1/interviews/deleteOne', () => {
    it('deletes an interview without invites, and refuses one with invites unless cascade', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const empty = await makeInterview(t, admin, productID);
      expect((await post('/v1/interviews/deleteOne', { interviewID: empty })).body).toEqual({
        result: { interviewID: empty, status: 'deleted', invites: 0, reports: 0, profiles: 0 },
      });
      expectError(await get('/v1/interviews/getOne', { interviewID: empty }), 404);

      const interviewID = await makeInterview(t, admin, productID, { guidelines: GUIDELINES });
      const [a, b] = await links(interviewID, 3);
      await interviewed(a, 'ada@example.com');
      const reportID = await completedReport(interviewID);
      const share = (await post('/v1/reports/share', { reportID })).body.result.url as string;
      expect((await t.http.get(new URL(share, 'http://x').pathname)).status).toBe(200);

      const before = await dbFingerprint(t.db);
      expectError(await post('/v1/interviews/deleteOne', { interviewID }), 409, /has 3 invite\(s\); send "cascade": true/);
      expectError(await post('/v1/interviews/deleteOne', { interviewID, cascade: false }), 409);
      expect(await dbFingerprint(t.db)).toBe(before);

      const counts = await tableCounts(t.db);
      const res = await post('/v1/interviews/deleteOne', { interviewID, cascade: true });
      expect(res.body).toEqual({ result: { interviewID, status: 'deleted', invites: 3, reports: 1, profiles: 0 } });
      const after = await tableCounts(t.db);
      expect(after.invites).toBe(counts.invites - 3);
      expect(after.reports).toBe(counts.reports - 1);
      expect(after.report_shares).toBe(counts.report_shares - 1);
      expect(after.profiles).toBe(counts.profiles);
      for (const linkID of [a, b]) expectError(await get('/v1/invites/getOne', { linkID }), 404);
      expectError(await get('/v1/reports/getOne', { reportID }), 404);
      expect((await t.http.get(new URL(share, 'http://x').pathname)).status).toBe(404);
      expect((await t.http.get(`/i/${a}`)).status).toBe(404);
      expect((await get('/v1/products/getOne', { productID })).status).toBe(200);
    });

    it('404s interviews the caller cannot see and refuses bad input, writing nothing', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID);
      const stranger = await scopedToken(t, { orgID: uniq('org') });
      const before = await dbFingerprint(t.db);
      expectError(await post('/v1/interviews/deleteOne', { interviewID }, stranger), 404);
      expectError(await post('/v1/interviews/deleteOne', { interviewID, cascade: 'yes' }), 400, /cascade must be true or false/);
      expectError(await post('/v1/interviews/deleteOne', {}), 400, /interviewID/);
      expectError(await post('/v1/interviews/deleteOne', { interviewID, extra: 1 }), 400, /extra/);
      expect(await dbFingerprint(t.db)).toBe(before);
    });
  });

  describe('POST /v1/products/deleteOne', () => {
    it('refuses a product with interviews unless cascade, which deletes everything under it and the profiles left without a product', async () => {
      const orgID = uniq('org');
      const productID = await makeProduct(t, admin, { orgID, name: 'Acme Notes' });
      const keep = await makeProduct(t, admin, { orgID, name: 'Acme Mail' });
      const interviewID = await makeInterview(t, admin, productID, { guidelines: GUIDELINES });
      const other = await makeInterview(t, admin, productID);
      const keptInterview = await makeInterview(t, admin, keep, { guidelines: GUIDELINES });
      const [only, both] = await links(interviewID, 2);
      await links(other, 1);
      const [kept] = await links(keptInterview, 1);
      await interviewed(only, 'only@example.com');
      await interviewed(both, 'both@example.com');
      await interviewed(kept, 'both@example.com');
      await completedReport(interviewID);
      const profilesOf = async (p: string) => (await get('/v1/profiles/getList', { productID: p })).body.result as { profileID: string; productIDs: string[] }[];
      expect((await profilesOf(productID)).length).toBe(2);

      const before = await dbFingerprint(t.db);
      expectError(await post('/v1/products/deleteOne', { productID }), 409, /has 2 interview\(s\)/);
      expect(await dbFingerprint(t.db)).toBe(before);

      const res = await post('/v1/products/deleteOne', { productID, cascade: true });
      expect(res.body).toEqual({ result: { productID, status: 'deleted', invites: 3, reports: 1, profiles: 1 } });
      expectError(await get('/v1/products/getOne', { productID }), 404);
      expectError(await get('/v1/interviews/getOne', { interviewID }), 404);
      // The interviewee of both products keeps a profile, now only of the product that stays.
      const left = await profilesOf(keep);
      expect(left).toHaveLength(1);
      expect(left[0].productIDs).toEqual([keep]);
      expect((await get('/v1/invites/getOne', { linkID: kept })).body.result.status).toBe('completed');
    });

    it('deletes a product without interviews, and 404s products the caller cannot see', async () => {
      const orgID = uniq('org');
      const productID = await makeProduct(t, admin, { orgID });
      expectError(await post('/v1/products/deleteOne', { productID }, await scopedToken(t, { orgID: uniq('org') })), 404);
      const own = await scopedToken(t, { orgID });
      expect((await post('/v1/products/deleteOne', { productID }, own)).body).toEqual({ result: { productID, status: 'deleted', invites: 0, reports: 0, profiles: 0 } });
      expectError(await post('/v1/products/deleteOne', { productID }), 404);
    });
  });
});
