import { ProfilesService } from '../src/profiles/profiles.service';
import { TestApp, bearer, expectError, scopedToken, useTestApp, uniq } from './helpers/app';
import { makeProduct } from './helpers/factories';

describe('Profiles API', () => {
  let t: TestApp;
  let admin: string;
  let profiles: ProfilesService;
  useTestApp(async (app) => {
    ({ t, admin } = app);
    profiles = t.app.get(ProfilesService);
  });

  const METADATA = { source: 'interview', last_interviewed: '2026-11-20T16:40:12.345Z', interview_count: 3, sentiment: 0.42 };
  const DETAILS = { occupation: 'Analyst', location: 'London', background: 'Mathematics', productAlignment: 'Daily user', key_values: ['rigour'], interests: ['engines'] };
  const HISTORY = [
    { type: 'invite', id: 'abc' },
    { type: 'note', id: 'n1' },
  ];

  describe('GET /v1/profiles/getOne', () => {
    it('returns every field of the spec, with defaults for what is unknown', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const full = await profiles.create({
        productIDs: [productID],
        firstName: 'Ada',
        lastName: 'Lovelace',
        metadata: { ...METADATA, acquired_date: '2026-10-02T09:15:00Z' },
        details: DETAILS,
        history: HISTORY,
      });
      const res = await t.http.get('/v1/profiles/getOne').query({ profileID: full }).set(bearer(admin));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: {
          profileID: full,
          productIDs: [productID],
          firstName: 'Ada',
          lastName: 'Lovelace',
          // The acquired date as every other instant the API returns: milliseconds and Z.
          metadata: { ...METADATA, acquired_date: '2026-10-02T09:15:00.000Z' },
          details: DETAILS,
          history: HISTORY,
        },
      });

      const bare = await profiles.create({ productIDs: [productID] });
      const res2 = await t.http.get('/v1/profiles/getOne').query({ profileID: bare }).set(bearer(admin));
      expect(res2.body.result).toEqual({
        profileID: bare,
        productIDs: [productID],
        firstName: null,
        lastName: null,
        metadata: { source: null, acquired_date: null, last_interviewed: null, interview_count: null, sentiment: null },
        details: { occupation: null, location: null, background: null, productAlignment: null, key_values: [], interests: [] },
        history: [],
      });
    });

    it('is visible when any of its products is, listing only the products the caller can see', async () => {
      const orgA = uniq('org');
      const orgB = uniq('org');
      const a = await makeProduct(t, admin, { orgID: orgA });
      const b = await makeProduct(t, admin, { orgID: orgB });
      const profileID = await profiles.create({ productIDs: [a, b], firstName: 'Shared' });
      const tokenA = await scopedToken(t, { orgID: orgA });
      const res = await t.http.get('/v1/profiles/getOne').query({ profileID }).set(bearer(tokenA));
      expect(res.status).toBe(200);
      expect(res.body.result.productIDs).toEqual([a]);
      const all = await t.http.get('/v1/profiles/getOne').query({ profileID }).set(bearer(admin));
      expect(all.body.result.productIDs).toEqual([a, b]);
      expectError(await t.http.get('/v1/profiles/getOne').query({ profileID }).set(bearer(await scopedToken(t, { orgID: uniq('org') }))), 404);
    });

    it('requires profileID, refuses repeats and unknown keys, 404s unknown ids', async () => {
      expectError(await t.http.get('/v1/profiles/getOne').set(bearer(admin)), 400, /profileID is required/);
      expectError(await t.http.get('/v1/profiles/getOne?profileID=a&profileID=b').set(bearer(admin)), 400);
      expectError(await t.http.get('/v1/profiles/getOne?profileID=a&x=1').set(bearer(admin)), 400, /unknown field "x"/);
      expectError(await t.http.get('/v1/profiles/getOne').query({ profileID: 'nope' }).set(bearer(admin)), 404);
    });
  });

  describe('GET /v1/profiles/getList', () => {
    it('lists a product\'s profiles oldest first', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const other = await makeProduct(t, admin, { orgID: uniq('org') });
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push(await profiles.create({ productIDs: [productID], firstName: `P${i}` }));
      await profiles.create({ productIDs: [other] });
      const res = await t.http.get('/v1/profiles/getList').query({ productID }).set(bearer(admin));
      expect(res.status).toBe(200);
      expect(res.body.result.map((p: { profileID: string }) => p.profileID)).toEqual(ids);
      expect(res.body.result[0].firstName).toBe('P0');
    });

    it('answers 404 for a foreign or unknown product and 400 without productID', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      await profiles.create({ productIDs: [productID] });
      expectError(await t.http.get('/v1/profiles/getList').query({ productID }).set(bearer(await scopedToken(t, { orgID: uniq('org') }))), 404);
      expectError(await t.http.get('/v1/profiles/getList').query({ productID: 'nope' }).set(bearer(admin)), 404);
      expectError(await t.http.get('/v1/profiles/getList').set(bearer(admin)), 400, /productID is required/);
    });

    it('answers an empty list for a product without profiles', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      expect((await t.http.get('/v1/profiles/getList').query({ productID }).set(bearer(admin))).body).toEqual({ result: [] });
    });
  });

  describe('domain writes', () => {
    it('refuses a profile without products or with out-of-range metadata', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      await expect(profiles.create({ productIDs: [] })).rejects.toThrow(/at least one product/);
      await expect(profiles.create({ productIDs: [productID], metadata: { sentiment: 2 } })).rejects.toThrow(/sentiment/);
      await expect(profiles.create({ productIDs: [productID], metadata: { interview_count: -1 } })).rejects.toThrow(/interview_count/);
      await expect(profiles.create({ productIDs: [productID], metadata: { source: 'rumour' } })).rejects.toThrow(/source/);
      await expect(profiles.create({ productIDs: [productID], history: [{ type: 'gossip', id: 'x' }] })).rejects.toThrow(/history\.0\.type must be one of/);
    });
  });
});
