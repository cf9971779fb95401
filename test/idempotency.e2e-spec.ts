import { IdempotencyRecord } from '../src/idempotency/idempotency-record.entity';
import { idempotencyRequestHash } from '../src/idempotency/idempotency.service';
import { TestApp, useTestApp, bearer, expectError, scopedToken, startApp, tableCounts, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';

describe('Idempotency-Key', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  const addProduct = (token: string, key: string | undefined, body: Record<string, unknown>) => {
    const req = t.http.post('/v1/products/addOne').set(bearer(token));
    return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
  };

  describe('POST /v1/products/addOne', () => {
    it('replays the first success for the same key and parameters, creating nothing more', async () => {
      const key = uniq('key');
      const body = { name: 'Once', orgID: uniq('org') };
      const first = await addProduct(admin, key, body);
      expect(first.status).toBe(201);
      const counts = await tableCounts(t.db);
      const again = await addProduct(admin, key, { orgID: body.orgID, name: 'Once' }); // same parameters, other key order
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await tableCounts(t.db)).toEqual(counts);
      const list = await t.http.get('/v1/products/getList').query({ orgID: body.orgID }).set(bearer(admin));
      expect(list.body.result).toHaveLength(1);
    });

    it('answers 422 for the same key with different parameters, creating nothing', async () => {
      const key = uniq('key');
      const orgID = uniq('org');
      await addProduct(admin, key, { name: 'A', orgID }).expect(201);
      const counts = await tableCounts(t.db);
      expectError(await addProduct(admin, key, { name: 'B', orgID }), 422, /different parameters/);
      expect(await tableCounts(t.db)).toEqual(counts);
    });

    it('answers 409 while the first request with the key is still in progress', async () => {
      const key = uniq('key');
      const { id, token } = await t.tokens.create({ isAdmin: true });
      const params = { name: 'x', orgID: uniq('org') };
      // Plant the record a first, still-running request would have claimed.
      const now = new Date();
      await t.db.getRepository(IdempotencyRecord).insert({
        tokenId: id,
        key,
        requestHash: idempotencyRequestHash('POST /v1/products/addOne', params),
        responseStatus: null,
        responseBody: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
      });
      const counts = await tableCounts(t.db);
      expectError(await t.http.post('/v1/products/addOne').set(bearer(token)).set('Idempotency-Key', key).send(params), 409, /in progress/);
      expect(await tableCounts(t.db)).toEqual(counts);
    });

    it('keeps keys of different tokens apart', async () => {
      const key = uniq('key');
      const orgID = uniq('org');
      const other = await scopedToken(t, { orgID });
      const a = await addProduct(admin, key, { name: 'n', orgID });
      const b = await addProduct(other, key, { name: 'n', orgID });
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(b.body.result.productID).not.toBe(a.body.result.productID);
    });

    it('releases the key when the first request fails, so a corrected retry runs', async () => {
      const key = uniq('key');
      expectError(await addProduct(admin, key, { name: 'n' }), 400);
      expectError(await addProduct(admin, key, { name: 'n', orgID: 'x', bogus: 1 }), 400);
      const orgID = uniq('org');
      expect((await addProduct(admin, key, { name: 'n', orgID })).status).toBe(201);
    });

    it('treats a key older than 24 h as new', async () => {
      const key = uniq('key');
      const orgID = uniq('org');
      const first = await addProduct(admin, key, { name: 'n', orgID });
      await t.db.getRepository(IdempotencyRecord).update({ key }, { expiresAt: new Date(Date.now() - 1000) });
      const second = await addProduct(admin, key, { name: 'n', orgID });
      expect(second.status).toBe(201);
      expect(second.body.result.productID).not.toBe(first.body.result.productID);
    });

    it('refuses a key over 255 characters or with control characters', async () => {
      expectError(await addProduct(admin, 'k'.repeat(256), { name: 'n', orgID: 'o' }), 400, /Idempotency-Key/);
      expectError(await addProduct(admin, 'has space', { name: 'n', orgID: 'o' }), 400, /Idempotency-Key/);
    });
  });

  describe('GET /v1/invites/createInvites', () => {
    it('replays the same URLs without creating invites, also after a restart', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID);
      const key = uniq('key');
      const first = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 5 }).set(bearer(admin)).set('Idempotency-Key', key);
      expect(first.status).toBe(200);
      const again = await t.http.get('/v1/invites/createInvites').query({ count: '5', interviewID }).set(bearer(admin)).set('Idempotency-Key', key);
      expect(again.body).toEqual(first.body);

      // A new instance (same database) replays it too: the record is in the database, not in memory.
      const second = await startApp();
      try {
        const replay = await second.http.get('/v1/invites/createInvites').query({ interviewID, count: 5 }).set(bearer(admin)).set('Idempotency-Key', key);
        expect(replay.status).toBe(200);
        expect(replay.body).toEqual(first.body);
        expectError(await second.http.get('/v1/invites/createInvites').query({ interviewID, count: 6 }).set(bearer(admin)).set('Idempotency-Key', key), 422);
      } finally {
        await second.close();
      }
      const list = await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(admin));
      expect(list.body.result).toHaveLength(5);
    });
  });

  it('is documented on addOne and createInvites', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    for (const [path, method] of [
      ['/v1/products/addOne', 'post'],
      ['/v1/interviews/addOne', 'post'],
      ['/v1/invites/createInvites', 'get'],
    ]) {
      const op = doc.paths[path][method];
      expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]));
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
    }
  });
});
