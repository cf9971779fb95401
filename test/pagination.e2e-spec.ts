import { ConversationTurn, Invite } from '../src/invites/invite.entity';
import { ProfilesService } from '../src/profiles/profiles.service';
import { TestApp, bearer, expectError, useTestApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';

interface Lister {
  name: string;
  path: string;
  key: string;
  /** Creates the list's parent and returns the query that lists it plus an "add one row" function. */
  setup(t: TestApp, token: string): Promise<{ query: Record<string, string>; add: () => Promise<void> }>;
}

const listers: Lister[] = [
  {
    name: 'products',
    path: '/v1/products/getList',
    key: 'productID',
    async setup(t, token) {
      const orgID = uniq('org');
      return { query: { orgID }, add: async () => void (await makeProduct(t, token, { orgID })) };
    },
  },
  {
    name: 'interviews',
    path: '/v1/interviews/getList',
    key: 'interviewID',
    async setup(t, token) {
      const productID = await makeProduct(t, token, { orgID: uniq('org') });
      return { query: { productID }, add: async () => void (await makeInterview(t, token, productID)) };
    },
  },
  {
    name: 'invites',
    path: '/v1/invites/getList',
    key: 'linkID',
    async setup(t, token) {
      const productID = await makeProduct(t, token, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, token, productID);
      return {
        query: { interviewID },
        add: async () => {
          await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 3 }).set(bearer(token)).expect(200);
        },
      };
    },
  },
  {
    name: 'profiles',
    path: '/v1/profiles/getList',
    key: 'profileID',
    async setup(t, token) {
      const productID = await makeProduct(t, token, { orgID: uniq('org') });
      return { query: { productID }, add: async () => void (await t.app.get(ProfilesService).create({ productIDs: [productID] })) };
    },
  },
];

describe('Paged lists (limit and cursor)', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  async function walk(path: string, query: Record<string, string>, limit: number, between?: () => Promise<void>) {
    const seen: Record<string, string>[][] = [];
    let url: string | undefined = `${path}?${new URLSearchParams({ ...query, limit: String(limit) })}`;
    let pages = 0;
    while (url && pages < 100) {
      const res = await t.http.get(url).set(bearer(admin));
      expect(res.status).toBe(200);
      seen.push(res.body.result);
      expect(res.body.result.length).toBeLessThanOrEqual(limit);
      const link = res.headers.link as string | undefined;
      url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
      pages++;
      if (between && pages === 1) await between();
    }
    return seen;
  }

  describe.each(listers)('GET $path', (lister) => {
    it('returns everything in one response without limit, and no Link header', async () => {
      const { query, add } = await lister.setup(t, admin);
      for (let i = 0; i < 4; i++) await add();
      const res = await t.http.get(lister.path).query(query).set(bearer(admin));
      expect(res.headers.link).toBeUndefined();
      expect(res.body.result.length).toBeGreaterThanOrEqual(4);
    });

    it('pages through the list in order, each row exactly once', async () => {
      const { query, add } = await lister.setup(t, admin);
      for (let i = 0; i < 7; i++) await add();
      const all = (await t.http.get(lister.path).query(query).set(bearer(admin))).body.result.map((r: Record<string, string>) => r[lister.key]);
      const pages = await walk(lister.path, query, 3);
      const paged = pages.flat().map((r: Record<string, string>) => r[lister.key]);
      expect(paged).toEqual(all);
      expect(pages.length).toBe(Math.ceil(all.length / 3));
      expect(pages[0][0]).toEqual((await t.http.get(lister.path).query(query).set(bearer(admin))).body.result[0]);
    });

    it('still covers every row exactly once when rows are added between pages', async () => {
      const { query, add } = await lister.setup(t, admin);
      for (let i = 0; i < 6; i++) await add();
      const pages = await walk(lister.path, query, 2, add);
      const paged = pages.flat().map((r: Record<string, string>) => r[lister.key]);
      const all = (await t.http.get(lister.path).query(query).set(bearer(admin))).body.result.map((r: Record<string, string>) => r[lister.key]);
      expect(new Set(paged).size).toBe(paged.length);
      expect(paged).toEqual(all);
    });

    it.each([
      ['limit 0', { limit: '0' }, /limit must be from 1 to 1000/],
      ['limit 1001', { limit: '1001' }, /limit must be from 1 to 1000/],
      ['a fractional limit', { limit: '2.5' }, /limit must be a whole number/],
      ['a malformed cursor', { cursor: 'not base64!' }, /cursor is not valid/],
      ['a forged cursor', { cursor: Buffer.from('["yesterday", 5]').toString('base64url') }, /cursor is not valid/],
    ])('refuses %s with 400', async (_case, extra, message) => {
      const { query } = await lister.setup(t, admin);
      expectError(await t.http.get(lister.path).query({ ...query, ...extra }).set(bearer(admin)), 400, message);
    });
  });

  it('streams an unpaged list longer than one chunk whole: every row once, in the order paging gives', async () => {
    const productID = await makeProduct(t, admin, { orgID: uniq('org') });
    const interviewID = await makeInterview(t, admin, productID);
    // Invites are streamed 100 at a time: 1,203 rows make thirteen chunks.
    for (const count of [1000, 203]) await t.http.get('/v1/invites/createInvites').query({ interviewID, count }).set(bearer(admin)).expect(200);
    const res = await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // Written as it is read from the database: no length known up front.
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers.link).toBeUndefined();
    expect(Object.keys(res.body)).toEqual(['result']);
    const streamed = res.body.result.map((r: { linkID: string }) => r.linkID);
    const paged = (await walk('/v1/invites/getList', { interviewID }, 1000)).flat().map((r: Record<string, string>) => r.linkID);
    expect(streamed).toHaveLength(1203);
    expect(streamed).toEqual(paged);
    expect(res.body.result[0]).toEqual((await t.http.get('/v1/invites/getList').query({ interviewID, limit: 1 }).set(bearer(admin))).body.result[0]);
  });

  it("writes the transcripts of a streamed list as stored: the same bytes as the rows paged, serialized by JSON.stringify", async () => {
    const productID = await makeProduct(t, admin, { orgID: uniq('org') });
    const interviewID = await makeInterview(t, admin, productID);
    // 150 invites: two chunks of the stream (100 a query).
    const links = ((await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 150 }).set(bearer(admin)).expect(200)).body.result as string[]).map((url) =>
      url.split('/').pop()!,
    );
    const conversation = [
      { role: 'interviewer', content: 'Qu\'en pensez-vous ? "Honnêtement" \\ </script> \u2028' },
      { role: 'interviewee', content: 'Très bien 😀 日本語\n\ttab \ud800' },
    ];
    const userInfo = { email: 'stream@example.com', name: 'Zoë "Z" Müller', occupation: null };
    for (const linkID of [links[0], links[120], links[149]]) await t.db.getRepository(Invite).update({ linkID }, { conversation: conversation as ConversationTurn[], userInfo });
    const streamed = await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(admin)).expect(200);
    expect(streamed.headers['transfer-encoding']).toBe('chunked');
    const paged = (await walk('/v1/invites/getList', { interviewID }, 1000)).flat();
    expect(paged).toHaveLength(150);
    expect(paged.filter((row) => JSON.stringify(row).includes('Honnêtement'))).toHaveLength(3);
    expect(streamed.text).toBe(JSON.stringify({ result: paged }));
  });

  it('documents limit, cursor and the Link header in Swagger', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    for (const lister of listers) {
      const op = doc.paths[lister.path].get;
      const names = op.parameters.map((p: { name: string }) => p.name);
      expect(names).toEqual(expect.arrayContaining(['limit', 'cursor']));
      expect(op.responses['200'].headers.Link).toMatchObject({ description: expect.stringContaining('rel="next"'), schema: { type: 'string' } });
      expect(op.responses['200'].content['application/json'].schema.properties.result.type).toBe('array');
    }
  });
});
