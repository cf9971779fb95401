import { TestApp, bearer, expectError, scopedToken, useTestApp, tableCounts, uniq } from './helpers/app';
import { makeProduct } from './helpers/factories';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Products API', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  describe('POST /v1/products/addOne', () => {
    it('creates a product and answers 201 with its time-ordered id', async () => {
      const orgID = uniq('org');
      const res = await t.http
        .post('/v1/products/addOne')
        .set(bearer(admin))
        .send({ name: 'Acme Notes', desc: 'Notes', orgID, userID: 'u1', url: 'https://acme.example/notes', imageLink: 'http://img.example/a.png' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ result: { productID: expect.stringMatching(UUID_V7) } });

      const read = await t.http.get('/v1/products/getOne').query({ productID: res.body.result.productID }).set(bearer(admin));
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        result: {
          productID: res.body.result.productID,
          name: 'Acme Notes',
          desc: 'Notes',
          orgID,
          userID: 'u1',
          url: 'https://acme.example/notes',
          imageLink: 'http://img.example/a.png',
        },
      });
    });

    it('returns every field with null where unset', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const read = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin));
      expect(read.body.result).toEqual({ productID, name: 'Test product', desc: null, orgID: expect.any(String), userID: null, url: null, imageLink: null });
    });

    it('round-trips quotes, SQL, markup, emoji, right-to-left text and combining marks exactly', async () => {
      const tricky = `Robert'); DROP TABLE products;-- <script>alert("x")</script> 😀👩🏽‍🔬 שלום مرحبا e\u0301 \\ \n\t`;
      const productID = await makeProduct(t, admin, { name: 'Tricky ☃', desc: tricky, orgID: uniq('org') });
      const read = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin));
      expect(read.body.result.desc).toBe(tricky);
      expect(read.body.result.name).toBe('Tricky ☃');
    });

    it('accepts the maximum lengths: name 200, desc 10,000, url 2,048', async () => {
      const url = 'https://example.com/' + 'a'.repeat(2048 - 20);
      const productID = await makeProduct(t, admin, { name: 'n'.repeat(200), desc: 'd'.repeat(10_000), url, orgID: uniq('org') });
      const read = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin));
      expect(read.body.result.name).toHaveLength(200);
      expect(read.body.result.desc).toHaveLength(10_000);
      expect(read.body.result.url).toBe(url);
    });

    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['a missing name', { orgID: 'o' }, /name is required/],
      ['a null name', { name: null, orgID: 'o' }, /name/],
      ['a blank name', { name: '  \t ', orgID: 'o' }, /name must contain a non-whitespace character/],
      ['an empty name', { name: '', orgID: 'o' }, /name must be 1 to 200/],
      ['a name of 201 characters', { name: 'x'.repeat(201), orgID: 'o' }, /name must be 1 to 200/],
      ['a number for name', { name: 42, orgID: 'o' }, /name must be a string/],
      ['an array for name', { name: ['a'], orgID: 'o' }, /name must be a string/],
      ['an object for desc', { name: 'n', desc: { a: 1 }, orgID: 'o' }, /desc must be a string/],
      ['a desc of 10,001 characters', { name: 'n', desc: 'x'.repeat(10_001), orgID: 'o' }, /desc must be at most 10000/],
      ['neither orgID nor userID', { name: 'n' }, /at least one of orgID, userID/],
      ['both owners null', { name: 'n', orgID: null, userID: null }, /at least one of orgID, userID/],
      ['an invalid url', { name: 'n', orgID: 'o', url: 'not a url' }, /url must be an absolute http\(s\) URL/],
      ['a non-http url', { name: 'n', orgID: 'o', url: 'javascript:alert(1)' }, /url must be an absolute http\(s\) URL/],
      ['an ftp imageLink', { name: 'n', orgID: 'o', imageLink: 'ftp://x.example/a.png' }, /imageLink must be an absolute http\(s\) URL/],
      ['a url over 2,048 characters', { name: 'n', orgID: 'o', url: 'https://e.com/' + 'a'.repeat(2048) }, /url must be at most 2048/],
      ['an unknown field', { name: 'n', orgID: 'o', owner: 'me' }, /unknown field "owner"/],
      ['a productID (server-generated)', { name: 'n', orgID: 'o', productID: 'mine' }, /unknown field "productID"/],
      ['a NUL character', { name: 'a\u0000b', orgID: 'o' }, /name must not contain NUL/],
      ['an unpaired surrogate', { name: 'a\ud800b', orgID: 'o' }, /name must not contain NUL characters or unpaired surrogates/],
      ['an orgID over 100 characters', { name: 'n', orgID: 'o'.repeat(101) }, /orgID must be at most 100/],
    ];

    it.each(bad)('refuses %s with 400 and writes nothing', async (_case, body, message) => {
      const before = await tableCounts(t.db);
      const res = await t.http.post('/v1/products/addOne').set(bearer(admin)).send(body);
      expectError(res, 400, message);
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it('refuses malformed JSON with 400', async () => {
      const res = await t.http.post('/v1/products/addOne').set(bearer(admin)).set('Content-Type', 'application/json').send('{"name": "x",');
      expectError(res, 400, /not valid JSON/);
    });

    it.each([
      ['a JSON array', '[{"name":"x","orgID":"o"}]'],
      ['a JSON string', '"x"'],
      ['JSON null', 'null'],
    ])('refuses %s as the body with 400', async (_case, raw) => {
      const res = await t.http.post('/v1/products/addOne').set(bearer(admin)).set('Content-Type', 'application/json').send(raw);
      expectError(res, 400);
    });

    it('refuses a body without Content-Type application/json with 415', async () => {
      const res = await t.http.post('/v1/products/addOne').set(bearer(admin)).set('Content-Type', 'text/plain').send('{"name":"x","orgID":"o"}');
      expectError(res, 415, /application\/json/);
    });

    it('refuses a form-encoded body with 415', async () => {
      const res = await t.http.post('/v1/products/addOne').set(bearer(admin)).type('form').send({ name: 'x', orgID: 'o' });
      expectError(res, 415);
    });

    it('refuses a body over the size limit with 413', async () => {
      const res = await t.http
        .post('/v1/products/addOne')
        .set(bearer(admin))
        .send({ name: 'n', orgID: 'o', desc: 'x'.repeat(1024 * 1024 + 10) });
      expectError(res, 413);
    });

    it('refuses a prototype-polluting key with 400', async () => {
      const res = await t.http
        .post('/v1/products/addOne')
        .set(bearer(admin))
        .set('Content-Type', 'application/json')
        .send('{"name":"x","orgID":"o","__proto__":{"isAdmin":true}}');
      expectError(res, 400, /__proto__/);
    });

    it('lets a scoped token create within its organization or for its user', async () => {
      const orgID = uniq('org');
      const userID = uniq('user');
      const token = await scopedToken(t, { orgID, userID });
      await expect(makeProduct(t, token, { orgID })).resolves.toMatch(UUID_V7);
      await expect(makeProduct(t, token, { userID })).resolves.toMatch(UUID_V7);
      await expect(makeProduct(t, token, { orgID: uniq('other'), userID })).resolves.toMatch(UUID_V7);
    });

    it('refuses with 403 a product a scoped token could not see afterwards, and writes nothing', async () => {
      const token = await scopedToken(t, { orgID: uniq('org') });
      const before = await tableCounts(t.db);
      const res = await t.http.post('/v1/products/addOne').set(bearer(token)).send({ name: 'n', orgID: uniq('other') });
      expectError(res, 403);
      expect(await tableCounts(t.db)).toEqual(before);
    });
  });

  describe('POST /v1/products/updateOne', () => {
    it('changes only the fields present and answers {productID, status: "updated"}', async () => {
      const orgID = uniq('org');
      const full = { orgID, userID: uniq('user'), desc: 'old', url: 'https://a.example/', imageLink: 'https://a.example/i.png' };
      const productID = await makeProduct(t, admin, full);
      const res = await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ productID, name: 'Renamed' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: { productID, status: 'updated' } });
      const read = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin));
      expect(read.body.result).toEqual({ productID, name: 'Renamed', ...full });
    });

    it.each([
      ['name', 'New name'],
      ['desc', 'New description'],
      ['orgID', 'org_moved_here'],
      ['userID', 'user_moved_here'],
      ['url', 'https://b.example/'],
      ['imageLink', 'https://b.example/i.png'],
    ])('updating only %s leaves every other field as it was', async (field, value) => {
      const before = { name: 'Before', orgID: uniq('org'), userID: uniq('user'), desc: 'd', url: 'https://a.example/', imageLink: 'https://a.example/i.png' };
      const productID = await makeProduct(t, admin, before);
      await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ productID, [field]: value }).expect(200);
      const read = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin));
      expect(read.body.result).toEqual({ productID, ...before, [field]: value });
    });

    it('clears optional fields given as null', async () => {
      const orgID = uniq('org');
      const productID = await makeProduct(t, admin, { orgID, userID: 'u', desc: 'old', url: 'https://a.example/' });
      await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ productID, desc: null, url: null, userID: null }).expect(200);
      const read = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin));
      expect(read.body.result).toMatchObject({ desc: null, url: null, userID: null, orgID });
    });

    it('refuses null for the name with 400 and changes nothing', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org'), name: 'Keep' });
      const res = await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ productID, name: null });
      expectError(res, 400, /name/);
      const read = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin));
      expect(read.body.result.name).toBe('Keep');
    });

    it('refuses clearing the last owner with 400', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const res = await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ productID, orgID: null });
      expectError(res, 400, /orgID, userID/);
    });

    it('requires productID', async () => {
      const res = await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ name: 'x' });
      expectError(res, 400, /productID is required/);
    });

    it('answers 404 for an unknown product', async () => {
      const res = await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ productID: 'no-such-product', name: 'x' });
      expectError(res, 404, /not found/);
    });

    it('answers 404 for a product of another organization and leaves it unchanged', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org'), name: 'Theirs' });
      const intruder = await scopedToken(t, { orgID: uniq('org') });
      const res = await t.http.post('/v1/products/updateOne').set(bearer(intruder)).send({ productID, name: 'Mine now' });
      expectError(res, 404);
      const read = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin));
      expect(read.body.result.name).toBe('Theirs');
    });

    it('refuses with 403 moving a product out of the caller\'s scope, and changes nothing', async () => {
      const orgID = uniq('org');
      const token = await scopedToken(t, { orgID });
      const productID = await makeProduct(t, token, { orgID });
      const res = await t.http.post('/v1/products/updateOne').set(bearer(token)).send({ productID, orgID: uniq('elsewhere') });
      expectError(res, 403);
      const read = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(token));
      expect(read.body.result.orgID).toBe(orgID);
    });

    it('validates fields like addOne does', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      expectError(await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ productID, url: 'nope' }), 400, /url/);
      expectError(await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ productID, extra: 1 }), 400, /unknown field "extra"/);
      expectError(await t.http.post('/v1/products/updateOne').set(bearer(admin)).send({ productID: 7 }), 400, /productID must be a string/);
    });
  });

  describe('GET /v1/products/getOne', () => {
    it('requires productID', async () => {
      expectError(await t.http.get('/v1/products/getOne').set(bearer(admin)), 400, /productID is required/);
    });

    it('refuses a repeated productID with 400', async () => {
      const res = await t.http.get('/v1/products/getOne?productID=a&productID=b').set(bearer(admin));
      expectError(res, 400, /productID must be a string/);
    });

    it('refuses unknown query parameters with 400', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const res = await t.http.get('/v1/products/getOne').query({ productID, fields: 'all' }).set(bearer(admin));
      expectError(res, 400, /unknown field "fields"/);
    });

    it('answers 404 for an unknown id', async () => {
      expectError(await t.http.get('/v1/products/getOne').query({ productID: '01900000-0000-7000-8000-000000000000' }).set(bearer(admin)), 404);
    });

    it('answers 404, not 403, for a product of another organization', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const intruder = await scopedToken(t, { orgID: uniq('org') });
      expectError(await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(intruder)), 404);
    });

    it('compares organization ids exactly: "acme" does not see "ACME"\'s products', async () => {
      const orgID = uniq('acme');
      const productID = await makeProduct(t, admin, { orgID: orgID.toUpperCase() });
      const lower = await scopedToken(t, { orgID });
      expectError(await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(lower)), 404);
      const list = await t.http.get('/v1/products/getList').query({ orgID: orgID.toUpperCase() }).set(bearer(lower));
      expect(list.body.result).toEqual([]);
      expectError(await t.http.get('/v1/products/getOne').query({ productID: productID.toUpperCase() }).set(bearer(admin)), 404);
    });

    it('shows a product to a token of its user, whatever the organization', async () => {
      const userID = uniq('user');
      const productID = await makeProduct(t, admin, { orgID: uniq('org'), userID });
      const token = await scopedToken(t, { orgID: uniq('org'), userID });
      const res = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(token));
      expect(res.status).toBe(200);
      expect(res.body.result.productID).toBe(productID);
    });
  });

  describe('GET /v1/products/getList', () => {
    it('needs at least one filter', async () => {
      expectError(await t.http.get('/v1/products/getList').set(bearer(admin)), 400, /at least one of orgID, userID/);
    });

    it('lists an organization\'s products oldest first', async () => {
      const orgID = uniq('org');
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await makeProduct(t, admin, { orgID, name: `P${i}` }));
      const res = await t.http.get('/v1/products/getList').query({ orgID }).set(bearer(admin));
      expect(res.status).toBe(200);
      expect(res.body.result.map((p: { productID: string }) => p.productID)).toEqual(ids);
      expect(res.body.result[0]).toEqual({ productID: ids[0], name: 'P0', desc: null, orgID, userID: null, url: null, imageLink: null });
    });

    it('combines orgID and userID with AND', async () => {
      const orgID = uniq('org');
      const userID = uniq('user');
      const both = await makeProduct(t, admin, { orgID, userID });
      await makeProduct(t, admin, { orgID });
      await makeProduct(t, admin, { userID });
      const res = await t.http.get('/v1/products/getList').query({ orgID, userID }).set(bearer(admin));
      expect(res.body.result.map((p: { productID: string }) => p.productID)).toEqual([both]);
      const byUser = await t.http.get('/v1/products/getList').query({ userID }).set(bearer(admin));
      expect(byUser.body.result).toHaveLength(2);
    });

    it('answers an empty list when nothing matches', async () => {
      const res = await t.http.get('/v1/products/getList').query({ orgID: uniq('nobody') }).set(bearer(admin));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: [] });
    });

    it('never lists products another organization owns', async () => {
      const theirs = uniq('org');
      await makeProduct(t, admin, { orgID: theirs });
      const intruder = await scopedToken(t, { orgID: uniq('org') });
      const res = await t.http.get('/v1/products/getList').query({ orgID: theirs }).set(bearer(intruder));
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual([]);
    });

    it('lists to a user-scoped token only the products it can see', async () => {
      const orgID = uniq('org');
      const userID = uniq('user');
      const visible = await makeProduct(t, admin, { orgID, userID });
      await makeProduct(t, admin, { orgID, userID: uniq('someone') });
      const token = await scopedToken(t, { userID });
      const res = await t.http.get('/v1/products/getList').query({ orgID }).set(bearer(token));
      expect(res.body.result.map((p: { productID: string }) => p.productID)).toEqual([visible]);
    });

    it('refuses repeated or unknown query keys with 400', async () => {
      expectError(await t.http.get('/v1/products/getList?orgID=a&orgID=b').set(bearer(admin)), 400, /orgID/);
      expectError(await t.http.get('/v1/products/getList?orgID=a&limitt=3').set(bearer(admin)), 400, /unknown field "limitt"/);
      expectError(await t.http.get('/v1/products/getList?orgID[$ne]=x').set(bearer(admin)), 400);
    });
  });
});
