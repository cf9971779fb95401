import { InvitesService } from '../src/invites/invites.service';
import { TestApp, bearer, expectError, scopedToken, useTestApp, tableCounts, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';

/** The fieldwork settings of an interview that sets none. */
// The optional settings as a new interview has them: its language auto, no public title, consent or redirect, kept, not redacted.
const SETTING_DEFAULTS = { translations: null, language: 'auto', publicTitle: null, consentText: null, completionRedirectUrl: null, retentionDays: null, redactPII: false, mode: 'text', keepAudio: false };

describe('Interviews API', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  async function read(interviewID: string, token = admin) {
    return t.http.get('/v1/interviews/getOne').query({ interviewID }).set(bearer(token));
  }

  async function addInvite(interviewID: string, productID: string) {
    await t.app.get(InvitesService).insertInvites({ interviewID, productID, orgID: null }, 1);
  }

  describe('POST /v1/interviews/addOne', () => {
    it('creates an interview with the default interviewer agent', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const res = await t.http
        .post('/v1/interviews/addOne')
        .set(bearer(admin))
        .send({ productID, interviewName: 'Onboarding', guidelines: 'Ask about day one.', userID: 'u1' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ result: { interviewID: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
      const got = await read(res.body.result.interviewID);
      expect(got.body).toEqual({
        result: {
          interviewID: res.body.result.interviewID,
          productID,
          interviewName: 'Onboarding',
          guidelines: 'Ask about day one.',
          userID: 'u1',
          interviewer: 'default',
          ...SETTING_DEFAULTS,
        },
      });
    });

    it('returns null for unset optional fields', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID);
      expect((await read(interviewID)).body.result).toEqual({
        interviewID,
        productID,
        interviewName: 'Test interview',
        guidelines: null,
        userID: null,
        interviewer: 'default',
        ...SETTING_DEFAULTS,
      });
    });

    it('stores guidelines of 50,000 characters, multi-byte ones included', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const guidelines = '質問😀'.repeat(12_500); // 50,000 UTF-16 units, ~175 KB of UTF-8
      const interviewID = await makeInterview(t, admin, productID, { guidelines });
      expect((await read(interviewID)).body.result.guidelines).toBe(guidelines);
    });

    it.each([
      ['a missing productID', { interviewName: 'x' }, /productID is required/],
      ['a missing interviewName', { productID: 'p' }, /interviewName is required/],
      ['a blank interviewName', { productID: 'p', interviewName: ' ' }, /non-whitespace/],
      ['an interviewName over 200 characters', { productID: 'p', interviewName: 'x'.repeat(201) }, /interviewName must be 1 to 200/],
      ['guidelines over 50,000 characters', { productID: 'p', interviewName: 'x', guidelines: 'g'.repeat(50_001) }, /guidelines must be at most 50000/],
      ['an interviewer (not accepted here)', { productID: 'p', interviewName: 'x', interviewer: 'agent-7' }, /unknown field "interviewer"/],
      ['a number for productID', { productID: 5, interviewName: 'x' }, /productID must be a string/],
    ])('refuses %s with 400 and writes nothing', async (_case, body, message) => {
      const before = await tableCounts(t.db);
      expectError(await t.http.post('/v1/interviews/addOne').set(bearer(admin)).send(body), 400, message);
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it('answers 404 for an unknown product', async () => {
      const res = await t.http.post('/v1/interviews/addOne').set(bearer(admin)).send({ productID: 'nope', interviewName: 'x' });
      expectError(res, 404, /product "nope" not found/);
    });

    it('answers 404 for a product of another organization and writes nothing', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const intruder = await scopedToken(t, { orgID: uniq('org') });
      const before = await tableCounts(t.db);
      expectError(await t.http.post('/v1/interviews/addOne').set(bearer(intruder)).send({ productID, interviewName: 'x' }), 404);
      expect(await tableCounts(t.db)).toEqual(before);
    });
  });

  describe('POST /v1/interviews/updateOne', () => {
    it('changes only the fields present', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID, { guidelines: 'g', userID: 'u' });
      const res = await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, interviewName: 'Renamed' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: { interviewID, status: 'updated' } });
      expect((await read(interviewID)).body.result).toEqual({
        interviewID,
        productID,
        interviewName: 'Renamed',
        guidelines: 'g',
        userID: 'u',
        interviewer: 'default',
        ...SETTING_DEFAULTS,
      });
    });

    it('clears guidelines and userID given as null; refuses null for interviewName', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID, { guidelines: 'g', userID: 'u' });
      await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, guidelines: null, userID: null }).expect(200);
      expect((await read(interviewID)).body.result).toMatchObject({ guidelines: null, userID: null });
      expectError(await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, interviewName: null }), 400, /interviewName/);
      expectError(await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, productID: null }), 400, /productID/);
    });

    it('moves an interview without invites to another visible product', async () => {
      const orgID = uniq('org');
      const token = await scopedToken(t, { orgID });
      const from = await makeProduct(t, token, { orgID });
      const to = await makeProduct(t, token, { orgID });
      const interviewID = await makeInterview(t, token, from);
      await t.http.post('/v1/interviews/updateOne').set(bearer(token)).send({ interviewID, productID: to }).expect(200);
      expect((await read(interviewID, token)).body.result.productID).toBe(to);
    });

    it('refuses with 409 moving an interview that has invites, and changes nothing', async () => {
      const orgID = uniq('org');
      const from = await makeProduct(t, admin, { orgID });
      const to = await makeProduct(t, admin, { orgID });
      const interviewID = await makeInterview(t, admin, from);
      await addInvite(interviewID, from);
      const res = await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, productID: to, interviewName: 'moved' });
      expectError(res, 409, /has invites/);
      expect((await read(interviewID)).body.result).toMatchObject({ productID: from, interviewName: 'Test interview' });
    });

    it('allows other changes to an interview that has invites', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID);
      await addInvite(interviewID, productID);
      await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, productID, interviewName: 'Still here' }).expect(200);
      expect((await read(interviewID)).body.result.interviewName).toBe('Still here');
    });

    it('answers 404 when moving to a product the caller cannot see', async () => {
      const orgID = uniq('org');
      const token = await scopedToken(t, { orgID });
      const mine = await makeProduct(t, token, { orgID });
      const theirs = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, token, mine);
      expectError(await t.http.post('/v1/interviews/updateOne').set(bearer(token)).send({ interviewID, productID: theirs }), 404);
      expect((await read(interviewID, token)).body.result.productID).toBe(mine);
    });

    it('answers 404 for an unknown interview or one of another organization', async () => {
      expectError(await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID: 'nope', interviewName: 'x' }), 404);
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID);
      const intruder = await scopedToken(t, { orgID: uniq('org') });
      expectError(await t.http.post('/v1/interviews/updateOne').set(bearer(intruder)).send({ interviewID, interviewName: 'x' }), 404);
      expect((await read(interviewID)).body.result.interviewName).toBe('Test interview');
    });

    it('requires interviewID and refuses unknown fields', async () => {
      expectError(await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewName: 'x' }), 400, /interviewID is required/);
      expectError(await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID: 'x', status: 'done' }), 400, /unknown field "status"/);
    });
  });

  describe('GET /v1/interviews/getOne', () => {
    it('requires interviewID, refuses repeats, 404s unknown and foreign ids', async () => {
      expectError(await t.http.get('/v1/interviews/getOne').set(bearer(admin)), 400, /interviewID is required/);
      expectError(await t.http.get('/v1/interviews/getOne?interviewID=a&interviewID=b').set(bearer(admin)), 400);
      expectError(await read('01900000-0000-7000-8000-000000000000'), 404);
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID);
      expectError(await read(interviewID, await scopedToken(t, { orgID: uniq('org') })), 404);
    });
  });

  describe('GET /v1/interviews/getList', () => {
    it('lists a product\'s interviews oldest first', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const other = await makeProduct(t, admin, { orgID: uniq('org') });
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push(await makeInterview(t, admin, productID, { interviewName: `I${i}` }));
      await makeInterview(t, admin, other);
      const res = await t.http.get('/v1/interviews/getList').query({ productID }).set(bearer(admin));
      expect(res.status).toBe(200);
      expect(res.body.result.map((i: { interviewID: string }) => i.interviewID)).toEqual(ids);
      expect(res.body.result[0]).toEqual({ interviewID: ids[0], productID, interviewName: 'I0', guidelines: null, userID: null, interviewer: 'default', ...SETTING_DEFAULTS });
    });

    it('answers an empty list for a product without interviews', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const res = await t.http.get('/v1/interviews/getList').query({ productID }).set(bearer(admin));
      expect(res.body).toEqual({ result: [] });
    });

    it('answers 404 for a product of another organization, 400 without productID', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      await makeInterview(t, admin, productID);
      expectError(await t.http.get('/v1/interviews/getList').query({ productID }).set(bearer(await scopedToken(t, { orgID: uniq('org') }))), 404);
      expectError(await t.http.get('/v1/interviews/getList').set(bearer(admin)), 400, /productID is required/);
      expectError(await t.http.get('/v1/interviews/getList').query({ productID: 'nope' }).set(bearer(admin)), 404);
    });
  });
});
