import { ENGINE } from '../src/config/engine';
import { InviteLifecycleService } from '../src/invites/invite-lifecycle.service';
import type { ConversationTurn } from '../src/invites/invite.entity';
import { TestApp, bearer, expectError, scopedToken, useTestApp, tableCounts, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';

const BASE = 'http://localhost:3000/i/';
const linkOf = (url: string) => url.slice(BASE.length);

describe('Invites API', () => {
  let t: TestApp;
  let admin: string;
  let lifecycle: InviteLifecycleService;
  useTestApp(async (app) => {
    ({ t, admin } = app);
    lifecycle = t.app.get(InviteLifecycleService);
  }, { INVITE_BASE_URL: 'http://localhost:3000/i', MAX_INVITES_PER_REQUEST: '1000' });

  async function setup(token = admin, orgID = uniq('org')) {
    const productID = await makeProduct(t, token, { orgID });
    const interviewID = await makeInterview(t, token, productID);
    return { orgID, productID, interviewID };
  }

  const create = (query: Record<string, unknown>, token = admin) => t.http.get('/v1/invites/createInvites').query(query).set(bearer(token));

  describe('GET /v1/invites/createInvites', () => {
    it('returns count URLs of base + "/" + linkID, each a new pending invite', async () => {
      const { orgID, productID, interviewID } = await setup();
      const res = await create({ interviewID, count: 3 });
      expect(res.status).toBe(200);
      expect(res.body.result).toHaveLength(3);
      for (const url of res.body.result) expect(url).toMatch(/^http:\/\/localhost:3000\/i\/[A-Za-z0-9_-]{32}$/);
      expect(new Set(res.body.result).size).toBe(3);

      const one = await t.http.get('/v1/invites/getOne').query({ linkID: linkOf(res.body.result[0]) }).set(bearer(admin));
      expect(one.status).toBe(200);
      expect(one.body).toEqual({
        result: {
          linkID: linkOf(res.body.result[0]),
          interviewID,
          productID,
          orgID,
          userInfo: null,
          status: 'pending',
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          completed_on: null,
          expires_on: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          conversation: [],
          source: 'link',
          participantID: null,
          segment: null,
          passthrough: null,
          screener: null,
          quality: null,
        },
      });
      expect(Math.abs(Date.parse(one.body.result.timestamp) - Date.now())).toBeLessThan(60_000);
      // INVITE_TTL_DAYS defaults to 30.
      expect(Date.parse(one.body.result.expires_on) - Date.parse(one.body.result.timestamp)).toBe(30 * 86_400_000);
    });

    it('creates 1,000 invites in one request', async () => {
      const { interviewID } = await setup();
      const res = await create({ interviewID, count: 1000 });
      expect(res.status).toBe(200);
      expect(new Set(res.body.result).size).toBe(1000);
      const list = await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(admin));
      expect(list.body.result).toHaveLength(1000);
    });

    it('accepts productID when it is the interview\'s product, and an explicit orgID from an admin', async () => {
      const { productID, interviewID } = await setup();
      const res = await create({ interviewID, count: 1, productID, orgID: 'org_partner' });
      expect(res.status).toBe(200);
      const one = await t.http.get('/v1/invites/getOne').query({ linkID: linkOf(res.body.result[0]) }).set(bearer(admin));
      expect(one.body.result.orgID).toBe('org_partner');
    });

    it.each([
      ['count 0', { count: '0' }, /count must be from 1 to 1000/],
      ['a negative count', { count: '-1' }, /count must be a whole number/],
      ['a fractional count', { count: '1.5' }, /count must be a whole number/],
      ['a non-numeric count', { count: 'ten' }, /count must be a whole number/],
      ['an exponent count', { count: '1e3' }, /count must be a whole number/],
      ['a count above the maximum', { count: '1001' }, /count must be from 1 to 1000/],
      ['a huge count', { count: '99999999999999999999' }, /count must be a whole number/],
      ['a missing count', { count: undefined }, /count is required/],
    ])('refuses %s with 400 and writes nothing', async (_case, override, message) => {
      const { interviewID } = await setup();
      const before = await tableCounts(t.db);
      const query: Record<string, unknown> = { interviewID, ...override };
      if (query.count === undefined) delete query.count;
      expectError(await create(query), 400, message);
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it('refuses a repeated count or interviewID with 400', async () => {
      const { interviewID } = await setup();
      expectError(await t.http.get(`/v1/invites/createInvites?interviewID=${interviewID}&count=1&count=2`).set(bearer(admin)), 400, /count/);
      expectError(await t.http.get(`/v1/invites/createInvites?interviewID=${interviewID}&interviewID=${interviewID}&count=1`).set(bearer(admin)), 400, /interviewID/);
    });

    it('requires interviewID and answers 404 for an unknown one', async () => {
      expectError(await create({ count: 1 }), 400, /interviewID is required/);
      expectError(await create({ interviewID: 'nope', count: 1 }), 404, /interview "nope" not found/);
    });

    it('refuses with 400 a productID that is not the interview\'s product, writing nothing', async () => {
      const { interviewID } = await setup();
      const other = await makeProduct(t, admin, { orgID: uniq('org') });
      const before = await tableCounts(t.db);
      expectError(await create({ interviewID, count: 2, productID: other }), 400, /not the product of interview/);
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it('answers 404 to a token of another organization, writing nothing', async () => {
      const { interviewID } = await setup();
      const intruder = await scopedToken(t, { orgID: uniq('org') });
      const before = await tableCounts(t.db);
      expectError(await create({ interviewID, count: 5 }, intruder), 404);
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it('lets a scoped token name its own orgID and refuses another with 403', async () => {
      const orgID = uniq('org');
      const token = await scopedToken(t, { orgID });
      const { interviewID } = await setup(token, orgID);
      expect((await create({ interviewID, count: 1, orgID }, token)).status).toBe(200);
      const before = await tableCounts(t.db);
      expectError(await create({ interviewID, count: 1, orgID: uniq('org') }, token), 403);
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it('defaults orgID to null for a product owned only by a user', async () => {
      const userID = uniq('user');
      const productID = await makeProduct(t, admin, { userID });
      const interviewID = await makeInterview(t, admin, productID);
      const res = await create({ interviewID, count: 1 });
      const one = await t.http.get('/v1/invites/getOne').query({ linkID: linkOf(res.body.result[0]) }).set(bearer(admin));
      expect(one.body.result.orgID).toBeNull();
    });
  });

  describe('GET /v1/invites/getOne', () => {
    it('shows what the interview room wrote: userInfo, the ordered conversation, status and completed_on', async () => {
      const { interviewID } = await setup();
      const [url] = (await create({ interviewID, count: 1 })).body.result;
      const linkID = linkOf(url);
      await t.http.post(`/i/${linkID}/start`).send({ name: 'Ada Lovelace', email: 'ada@example.com', occupation: 'Analyst', consent: true }).expect(200);
      await t.http.post(`/i/${linkID}/reply`).send({ content: 'Curiosity 😀 and a colleague who would not stop talking about it' }).expect(200);
      await t.http.post(`/i/${linkID}/end`).send({}).expect(200);
      const res = await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin));
      expect(res.body.result).toMatchObject({
        status: 'completed',
        userInfo: { email: 'ada@example.com', name: 'Ada Lovelace', occupation: 'Analyst' },
        conversation: [
          { role: 'system', content: expect.stringMatching(/^Consent given \d{4}-\d\d-\d\dT[\d:.]+Z: /) },
          { role: 'interviewer', content: expect.stringContaining('Ada') },
          { role: 'interviewee', content: 'Curiosity 😀 and a colleague who would not stop talking about it' },
          { role: 'interviewer', content: expect.any(String) },
        ],
      });
      expect(res.body.result.conversation).toHaveLength(4);
      expect(res.body.result.completed_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // completed is final: no expiry, whatever the clock says.
      await expect(lifecycle.expire(linkID, new Date('2999-01-01T00:00:00Z'))).resolves.toBe(false);
    });

    it('requires linkID; 404 for unknown, guessed and foreign links', async () => {
      expectError(await t.http.get('/v1/invites/getOne').set(bearer(admin)), 400, /linkID is required/);
      expectError(await t.http.get('/v1/invites/getOne').query({ linkID: 'A'.repeat(32) }).set(bearer(admin)), 404);
      const { interviewID } = await setup();
      const [url] = (await create({ interviewID, count: 1 })).body.result;
      const intruder = await scopedToken(t, { orgID: uniq('org') });
      expectError(await t.http.get('/v1/invites/getOne').query({ linkID: linkOf(url) }).set(bearer(intruder)), 404);
      expectError(await t.http.get('/v1/invites/getOne').query({ linkID: linkOf(url).slice(0, -1) }).set(bearer(admin)), 404);
      const swapped = linkOf(url).replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
      expectError(await t.http.get('/v1/invites/getOne').query({ linkID: swapped }).set(bearer(admin)), 404);
    });
  });

  describe('transcripts', () => {
    /** Starts the interview in the room, then stores turns through the lifecycle (the room's answers are 4,000 characters at most). */
    async function appendToStarted(linkID: string, turns: { role: string; content: string }[]) {
      await t.http.post(`/i/${linkID}/start`).send({ name: 'Ada', email: 'ada@example.com', consent: true }).expect(200);
      await lifecycle.append(await lifecycle.read(linkID), (turns as ConversationTurn[]).map((turn) => ({ ...turn, questionIndex: null })), null);
    }

    it('round-trip any Unicode exactly: emoji, right-to-left, combining marks, 100 KB turns', async () => {
      const { interviewID } = await setup();
      const [url] = (await create({ interviewID, count: 1 })).body.result;
      const linkID = linkOf(url);
      const turns = [
        { role: 'interviewer', content: '👩🏽‍🔬🧪 family: 👨‍👩‍👧‍👦, flags: 🇵🇹🇯🇵' },
        { role: 'interviewee', content: 'עברית ومرحبا بالعالم mixed with LTR' },
        { role: 'interviewee', content: 'e\u0301 a\u0308 Z\u0351\u0352\u0353 \u200d\u200f zero-width' },
        { role: 'interviewer', content: `"quotes" 'single' \\ backslash </script> \u2028\u2029 \t\r\n` },
        { role: 'interviewee', content: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 '.repeat(10_000).slice(0, 100 * 1024) },
      ];
      await appendToStarted(linkID, turns);
      const res = await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin));
      expect(res.body.result.conversation.slice(2)).toEqual(turns);
    });

    it('round-trip a 5 MB transcript byte-exact', async () => {
      const { interviewID } = await setup();
      const [url] = (await create({ interviewID, count: 1 })).body.result;
      const linkID = linkOf(url);
      const alphabet = 'abc ÄÖÜ 中文 😀 שלום ';
      const turns = [];
      let bytes = 0;
      for (let i = 0; bytes < 5 * 1024 * 1024; i++) {
        const content = `${i}: ` + alphabet.repeat(1200);
        turns.push({ role: i % 2 ? 'interviewee' : 'interviewer', content });
        bytes += Buffer.byteLength(content, 'utf8');
      }
      await appendToStarted(linkID, turns);
      const res = await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin));
      expect(res.status).toBe(200);
      const sent = Buffer.from(JSON.stringify(turns), 'utf8');
      const got = Buffer.from(JSON.stringify(res.body.result.conversation.slice(2)), 'utf8');
      expect(got.length).toBe(sent.length);
      expect(got.length).toBeGreaterThan(5 * 1024 * 1024);
      expect(got.equals(sent)).toBe(true);
    });
  });

  describe('GET /v1/invites/getList', () => {
    it('lists by interview and by product, oldest first, AND when both', async () => {
      const { productID, interviewID } = await setup();
      const second = await makeInterview(t, admin, productID);
      const first = (await create({ interviewID, count: 3 })).body.result.map(linkOf);
      const later = (await create({ interviewID: second, count: 2 })).body.result.map(linkOf);

      const byInterview = await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(admin));
      expect(byInterview.status).toBe(200);
      expect(byInterview.body.result.map((i: { linkID: string }) => i.linkID).sort()).toEqual([...first].sort());

      const byProduct = await t.http.get('/v1/invites/getList').query({ productID }).set(bearer(admin));
      const ids = byProduct.body.result.map((i: { linkID: string }) => i.linkID);
      expect(ids).toHaveLength(5);
      // Oldest first: every invite of the first batch precedes the second batch.
      expect(ids.slice(0, 3).sort()).toEqual([...first].sort());
      expect(ids.slice(3).sort()).toEqual([...later].sort());

      const both = await t.http.get('/v1/invites/getList').query({ productID, interviewID: second }).set(bearer(admin));
      expect(both.body.result.map((i: { linkID: string }) => i.linkID).sort()).toEqual([...later].sort());
      expect(byProduct.body.result[0]).toEqual(
        expect.objectContaining({ productID, status: 'pending', userInfo: null, conversation: [], completed_on: null }),
      );
    });

    it('orders ties (same creation time) by linkID', async () => {
      const { interviewID } = await setup();
      await create({ interviewID, count: 50 });
      const res = await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(admin));
      const ids = res.body.result.map((i: { linkID: string }) => i.linkID);
      const sorted = [...res.body.result]
        .sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.linkID < b.linkID ? -1 : a.linkID > b.linkID ? 1 : 0))
        .map((i: { linkID: string }) => i.linkID);
      expect(ids).toEqual(sorted);
    });

    it('needs a filter; 404 for unknown or foreign interview/product filters; never lists foreign invites', async () => {
      expectError(await t.http.get('/v1/invites/getList').set(bearer(admin)), 400, /at least one of interviewID, productID/);
      expectError(await t.http.get('/v1/invites/getList').query({ interviewID: 'nope' }).set(bearer(admin)), 404);
      expectError(await t.http.get('/v1/invites/getList').query({ productID: 'nope' }).set(bearer(admin)), 404);
      const { productID, interviewID } = await setup();
      await create({ interviewID, count: 2 });
      const intruder = await scopedToken(t, { orgID: uniq('org') });
      expectError(await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(intruder)), 404);
      expectError(await t.http.get('/v1/invites/getList').query({ productID }).set(bearer(intruder)), 404);
    });

    it('shows a scoped token the invites of its own products', async () => {
      const orgID = uniq('org');
      const token = await scopedToken(t, { orgID });
      const { interviewID } = await setup(token, orgID);
      await create({ interviewID, count: 2 }, token);
      const res = await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(token));
      expect(res.body.result).toHaveLength(2);
    });
  });
});

describe('createInvites above one INSERT statement (MAX_INVITES_PER_REQUEST 2500)', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app), { MAX_INVITES_PER_REQUEST: '2500' });

  const countOf = async (interviewID: string) => Number((await t.db.query('SELECT COUNT(*) AS n FROM invites WHERE interview_id = ?', [interviewID]))[0].n);

  it('stores 2,500 invites (three statements) in one request', async () => {
    const interviewID = await makeInterview(t, admin, await makeProduct(t, admin, { orgID: uniq('org') }));
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 2500 }).set(bearer(admin));
    expect(res.status).toBe(200);
    expect(new Set(res.body.result).size).toBe(2500);
    expect(await countOf(interviewID)).toBe(2500);
  });

  it('stores none of them when a later statement fails (all or nothing)', async () => {
    const interviewID = await makeInterview(t, admin, await makeProduct(t, admin, { orgID: uniq('org') }));
    // The database refuses the 1,001st invite of this interview: the second INSERT statement fails
    // after the first has written 1,000 rows inside the same transaction.
    const trigger = `irs_test_fail_${interviewID.replace(/-/g, '_')}`;
    const condition = `NEW.interview_id = '${interviewID}' AND (SELECT COUNT(*) FROM invites WHERE interview_id = NEW.interview_id) >= 1000`;
    await t.db.query(
      ENGINE === 'mysql'
        ? `CREATE TRIGGER ${trigger} BEFORE INSERT ON invites FOR EACH ROW BEGIN IF ${condition} THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'; END IF; END`
        : `CREATE TRIGGER ${trigger} BEFORE INSERT ON invites WHEN ${condition} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    );
    try {
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1500 }).set(bearer(admin));
      expectError(res, 500, /^internal server error$/);
      expect(await countOf(interviewID)).toBe(0);
    } finally {
      await t.db.query(`DROP TRIGGER ${trigger}`);
    }
    // And with the fault gone, the same request stores all of them.
    await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1500 }).set(bearer(admin)).expect(200);
    expect(await countOf(interviewID)).toBe(1500);
  });
});
