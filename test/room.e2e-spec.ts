import { mkdtempSync, rmSync } from 'node:fs';
import { Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ExpirySweeper } from '../src/invites/expiry-sweeper';
import { InvitesService } from '../src/invites/invites.service';
import { TestApp, bearer, expectError, startApp, uniq, useTestApp } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { BuiltServer } from './helpers/built-server';
import { dbFingerprint } from './helpers/fingerprint';

const GUIDELINES = [
  'Internal: this cohort churned in Q3, do not mention pricing experiments.',
  '1. How did you first hear about the product?',
  '- What do you use it for on a normal day?',
  'Note to self: listen for collaboration pain.',
].join('\n');
const NOTES = ['Internal: this cohort churned', 'pricing experiments', 'Note to self', 'collaboration pain'];
const LONG = 'It came up in a team meeting when we were comparing tools for research notes.';
const DAY = 86_400_000;

interface Turn {
  role: string;
  content: string;
}

describe('The interview room (/i/{linkID})', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  /** A product of a fresh organization with an image, an interview about it with GUIDELINES, and `count` links. */
  async function setup(count = 1, orgID = uniq('org'), guidelines = GUIDELINES) {
    const productID = await makeProduct(t, admin, { orgID, userID: uniq('owner'), name: 'Acme Notes', imageLink: 'https://images.example/acme.png' });
    const interviewID = await makeInterview(t, admin, productID, { interviewName: 'Onboarding, Q4', guidelines });
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count }).set(bearer(admin));
    const links: string[] = res.body.result.map((url: string) => new URL(url).pathname.split('/').pop());
    return { orgID, productID, interviewID, links };
  }

  const session = (linkID: string) => t.http.get(`/i/${linkID}/session`);
  const start = (linkID: string, body: Record<string, unknown> = { name: 'Ada Lovelace', email: 'ada@example.com', occupation: 'Analyst', consent: true }) =>
    t.http.post(`/i/${linkID}/start`).send(body);
  const reply = (linkID: string, content: string) => t.http.post(`/i/${linkID}/reply`).send({ content });
  const end = (linkID: string) => t.http.post(`/i/${linkID}/end`).send({});
  const invite = async (linkID: string) => (await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin))).body.result;
  const profiles = async (productID: string) => (await t.http.get('/v1/profiles/getList').query({ productID }).set(bearer(admin))).body.result;

  describe('an interview from the link to the profile', () => {
    it('opens on the service that made the link', async () => {
      const { interviewID } = await setup();
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin));
      const url = new URL(res.body.result[0]);
      expect(url.pathname).toMatch(/^\/i\/[A-Za-z0-9_-]{32}$/);
      const page = await t.http.get(url.pathname);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
    });

    it('runs start → answers → completion, and the transcript and profile appear through /v1', async () => {
      const { productID, links } = await setup();
      const [linkID] = links;

      const pending = await session(linkID);
      expect(pending.status).toBe(200);
      expect(pending.body.result).toEqual({
        status: 'pending',
        publicTitle: 'Onboarding, Q4',
        language: 'en',
        direction: 'ltr',
        languages: [],
        progress: { asked: 0, total: 2 },
        redirectUrl: null,
        mode: 'text',
        questionsSpokenBy: null,
        keepAudio: false,
        productName: 'Acme Notes',
        productImage: 'https://images.example/acme.png',
        consentText: expect.stringMatching(/automated interviewer/),
        conversation: [],
        expires_on: expect.stringMatching(/Z$/),
      });

      const started = await start(linkID);
      expect(started.status).toBe(200);
      expect(started.body.result.status).toBe('started');
      const [consent, opening] = started.body.result.conversation as Turn[];
      expect(consent).toEqual({ role: 'system', content: expect.stringMatching(/^Consent given \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z: This interview is conducted by an automated interviewer/) });
      expect(opening.role).toBe('interviewer');
      expect(opening.content).toMatch(/Ada/);
      expect(opening.content).toMatch(/Acme Notes/);
      expect(opening.content).toMatch(/How did you first hear about the product\?$/);

      const first = await reply(linkID, LONG);
      expect(first.body).toEqual({
        result: {
          status: 'started',
          turns: [{ role: 'interviewee', content: LONG }, { role: 'interviewer', content: 'What do you use it for on a normal day?' }],
          progress: { asked: 2, total: 2 },
          redirectUrl: null,
        },
      });
      const short = await reply(linkID, 'Mostly notes.');
      // Fewer than 8 words: probed once, whatever the next question would be.
      expect(short.body.result.turns[1].content).toMatch(/^(Could you tell me a little more about that\?|Could you give me an example\?|What makes you say that\?)$/);
      const probed = await reply(linkID, 'Meeting notes, interview notes, and a shared glossary I love using every week.');
      expect(probed.body.result.turns[1].content).toMatch(/anything else/);
      const last = await reply(linkID, 'The search could be better, honestly, but it is a great tool overall.');
      expect(last.body.result.status).toBe('completed');
      expect(last.body.result.turns[1].content).toMatch(/^Thank you, Ada/);

      const read = await invite(linkID);
      expect(read).toMatchObject({ status: 'completed', userInfo: { name: 'Ada Lovelace', email: 'ada@example.com', occupation: 'Analyst' } });
      expect(read.completed_on).toMatch(/Z$/);
      expect((read.conversation as Turn[]).map((turn) => turn.role)).toEqual([
        'system',
        'interviewer',
        ...Array.from({ length: 4 }, () => ['interviewee', 'interviewer']).flat(),
      ]);
      for (const note of NOTES) expect(JSON.stringify(read.conversation)).not.toContain(note);

      const [profile] = await profiles(productID);
      expect(profile).toEqual({
        profileID: expect.any(String),
        productIDs: [productID],
        firstName: 'Ada',
        lastName: 'Lovelace',
        metadata: {
          source: 'interview',
          acquired_date: read.completed_on,
          last_interviewed: read.completed_on,
          interview_count: 1,
          sentiment: expect.any(Number),
        },
        details: { occupation: 'Analyst', location: null, background: null, productAlignment: null, key_values: [], interests: [] },
        history: [{ type: 'invite', id: linkID }],
      });
      expect(profile.metadata.sentiment).toBeGreaterThan(0);
      expect(profile.metadata.sentiment).toBeLessThanOrEqual(1);

      // Completed is final: every change answers 409 naming the status, the page has no inputs.
      expectError(await reply(linkID, LONG), 409, /completed/);
      expectError(await start(linkID), 409, /completed/);
      expectError(await end(linkID), 409, /completed/);
      expect((await session(linkID)).body.result.status).toBe('completed');
      const page = await t.http.get(`/i/${linkID}`);
      expect(page.text).toContain('Thank you!');
      expect(page.text).not.toMatch(/<(input|textarea|button)\b/);
    });

    it('updates the same profile when the same person (any letter case) is interviewed again for the organization', async () => {
      const orgID = uniq('org');
      const first = await setup(1, orgID);
      const second = await setup(1, orgID);
      await start(first.links[0], { name: 'Grace Hopper', email: 'Grace@Example.com', consent: true });
      await reply(first.links[0], 'I absolutely love how fast it is, it is wonderful.');
      await end(first.links[0]);
      await start(second.links[0], { name: 'Grace B. Hopper', email: 'grace@EXAMPLE.com', occupation: 'Admiral', consent: true });
      await reply(second.links[0], 'It crashed twice and I lost my notes, which was terrible.');
      await end(second.links[0]);

      const [a] = await profiles(first.productID);
      const [b] = await profiles(second.productID);
      expect(b.profileID).toBe(a.profileID);
      expect(b).toMatchObject({
        productIDs: [first.productID, second.productID],
        firstName: 'Grace',
        lastName: 'Hopper',
        metadata: { interview_count: 2 },
        details: { occupation: 'Admiral' },
        history: [
          { type: 'invite', id: first.links[0] },
          { type: 'invite', id: second.links[0] },
        ],
      });
      // The mean over both answers: one clearly positive, one clearly negative.
      expect(b.metadata.sentiment).toBeGreaterThan(-0.6);
      expect(b.metadata.sentiment).toBeLessThan(0.6);
      expect(b.metadata.last_interviewed > a.metadata.acquired_date).toBe(true);

      // Another organization's interviewee with the same email is another person's profile.
      const other = await setup(1);
      await start(other.links[0], { name: 'Grace Other', email: 'grace@example.com', consent: true });
      await reply(other.links[0], LONG).expect(200);
      await end(other.links[0]);
      const [c] = await profiles(other.productID);
      expect(c.profileID).not.toBe(a.profileID);
      expect(c.metadata.interview_count).toBe(1);
    });

    it('counts every one of several interviews of one person that complete at once, in one profile', async () => {
      const orgID = uniq('org');
      const interviews = await Promise.all(Array.from({ length: 4 }, () => setup(1, orgID)));
      for (const { links } of interviews) {
        await start(links[0], { name: 'Ada Lovelace', email: 'ada.parallel@example.com', consent: true }).expect(200);
        await reply(links[0], LONG).expect(200);
      }
      const ended = await Promise.all(interviews.map(({ links }) => end(links[0])));
      expect(ended.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const found = await Promise.all(interviews.map(({ productID }) => profiles(productID)));
      expect(new Set(found.map(([p]) => p.profileID)).size).toBe(1);
      expect(found[0][0].metadata.interview_count).toBe(4);
      expect(found[0][0].history).toHaveLength(4);
    });

    it('lets the interviewee end early: completed, the transcript as it was, the interview counted', async () => {
      const { productID, links } = await setup();
      await start(links[0]);
      await reply(links[0], LONG);
      const ended = await end(links[0]);
      expect(ended.status).toBe(200);
      expect(ended.body.result.status).toBe('completed');
      const read = await invite(links[0]);
      expect(read.status).toBe('completed');
      expect(read.conversation).toHaveLength(4);
      expect((await profiles(productID))[0].metadata.interview_count).toBe(1);
    });

    it('never interleaves concurrent answers to one link: each answer is followed by its own question', async () => {
      const many = Array.from({ length: 12 }, (_, i) => `${i + 1}. Question number ${i + 1} about the product?`).join('\n');
      const { links } = await setup(1, uniq('org'), many);
      await start(links[0]);
      const answers = Array.from({ length: 6 }, (_, i) => `Answer ${i + 1}: ${LONG}`);
      const results = await Promise.all(answers.map((a) => reply(links[0], a)));
      expect(results.map((r) => r.status)).toEqual(answers.map(() => 200));
      const conversation = (await invite(links[0])).conversation as Turn[];
      expect(conversation).toHaveLength(2 + 2 * answers.length);
      const pairs = conversation.slice(2);
      for (let i = 0; i < pairs.length; i += 2) {
        expect(pairs[i].role).toBe('interviewee');
        // The agent saw every earlier answer: its n-th question follows the n-th answer, whichever it was.
        expect(pairs[i + 1]).toEqual({ role: 'interviewer', content: `Question number ${i / 2 + 2} about the product?` });
      }
      expect(pairs.filter((turn) => turn.role === 'interviewee').map((turn) => turn.content).sort()).toEqual([...answers].sort());
    });
  });

  describe('expiry', () => {
    /** A pending link made `ageDays` ago that expired after one day. */
    async function overdue(ageDays = 2) {
      const { orgID, productID, interviewID } = await setup(0 + 1);
      const [linkID] = await t.app
        .get(InvitesService)
        .insertInvites({ interviewID, productID, orgID }, 1, { createdAt: new Date(Date.now() - ageDays * DAY), expiresInDays: 1 });
      return linkID;
    }

    it('sets expires_on from expiresInDays', async () => {
      const { interviewID } = await setup();
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1, expiresInDays: 7 }).set(bearer(admin));
      const read = await invite(new URL(res.body.result[0]).pathname.split('/').pop()!);
      expect(Date.parse(read.expires_on) - Date.parse(read.timestamp)).toBe(7 * DAY);
      for (const bad of ['0', '366', '1.5', 'x']) {
        expectError(await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1, expiresInDays: bad }).set(bearer(admin)), 400, /expiresInDays/);
      }
    });

    it('expires a link past expires_on when it is used: the room says so and /v1 shows it', async () => {
      const linkID = await overdue();
      expect((await session(linkID)).body.result.status).toBe('expired');
      expect((await invite(linkID)).status).toBe('expired');
      expectError(await start(linkID), 409, /expired/);
      const page = await t.http.get(`/i/${linkID}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('This link has expired');
      expect(page.text).not.toMatch(/<(input|textarea|button)\b/);
    });

    it('answers a reply 409 once a started interview is past its time', async () => {
      const { orgID, productID, interviewID } = await setup();
      // Made a day ago less 1.5 s, valid for a day: it expires 1.5 s from now.
      const [linkID] = await t.app
        .get(InvitesService)
        .insertInvites({ interviewID, productID, orgID }, 1, { createdAt: new Date(Date.now() - DAY + 1500), expiresInDays: 1 });
      await start(linkID).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      expectError(await reply(linkID, LONG), 409, /expired/);
      const read = await invite(linkID);
      expect(read.status).toBe('expired');
      expect(read.conversation).toHaveLength(2);
    });

    it('sweeps links past expires_on, pending and started, and leaves completed and unexpired ones alone', async () => {
      const pending = await overdue();
      // Started today, expiring in a day: the sweep runs as if two days had passed.
      const { interviewID } = await setup();
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 3, expiresInDays: 1 }).set(bearer(admin));
      const [started, done, fresh] = (res.body.result as string[]).map((url) => new URL(url).pathname.split('/').pop()!);
      await start(started).expect(200);
      await start(done).expect(200);
      await reply(done, LONG).expect(200);
      await end(done).expect(200);
      const later = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1, expiresInDays: 30 }).set(bearer(admin));
      const unexpired = new URL(later.body.result[0]).pathname.split('/').pop()!;
      expect((await invite(started)).status).toBe('started');

      const swept = await t.app.get(ExpirySweeper).sweep(new Date(Date.now() + 2 * DAY));
      // The shared database may hold other tests' short-lived invites: at least these three.
      expect(swept).toBeGreaterThanOrEqual(3);
      expect(await Promise.all([pending, started, fresh, done, unexpired].map(async (l) => (await invite(l)).status))).toEqual([
        'expired',
        'expired',
        'expired',
        'completed',
        'pending',
      ]);
    });
  });

  describe('bad input and abuse', () => {
    it('answers 404 for unknown and malformed links on every route, never repeating the link', async () => {
      for (const linkID of ['A'.repeat(32), 'no-such-link', 'x'.repeat(65), 'bad%20link']) {
        for (const res of [await session(linkID), await start(linkID), await reply(linkID, 'hi'), await end(linkID)]) {
          expectError(res, 404, /no interview at this link/);
          expect(res.body.message).not.toContain(decodeURIComponent(linkID));
        }
        const page = await t.http.get(`/i/${linkID}`);
        expect(page.status).toBe(404);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.text).toContain('This link does not lead to an interview');
      }
    });

    it('answers 409 naming the status when the link is not in the state a request needs', async () => {
      const { links } = await setup();
      expectError(await reply(links[0], LONG), 409, /pending/);
      expectError(await end(links[0]), 409, /pending/);
      await start(links[0]).expect(200);
      expectError(await start(links[0]), 409, /started/);
    });

    it.each<[string, (linkID: string) => ReturnType<typeof start>, number, RegExp]>([
      ['consent missing', (l) => start(l, { name: 'Ada', email: 'ada@example.com' }), 400, /consent/],
      ['consent false', (l) => start(l, { name: 'Ada', email: 'ada@example.com', consent: false }), 400, /consent must be true/],
      ['consent "true" as a string', (l) => start(l, { name: 'Ada', email: 'ada@example.com', consent: 'true' }), 400, /consent must be true/],
      ['a malformed email', (l) => start(l, { name: 'Ada', email: 'ada@', consent: true }), 400, /email must be an email address/],
      ['an email over 320 characters', (l) => start(l, { name: 'Ada', email: `${'a'.repeat(310)}@example.com`, consent: true }), 400, /email/],
      ['a blank name', (l) => start(l, { name: '   ', email: 'ada@example.com', consent: true }), 400, /name/],
      ['a name over 200 characters', (l) => start(l, { name: 'A'.repeat(201), email: 'ada@example.com', consent: true }), 400, /name must be 1 to 200/],
      ['an unknown field', (l) => start(l, { name: 'Ada', email: 'ada@example.com', consent: true, orgID: 'x' }), 400, /unknown field "orgID"/],
      ['a NUL in the name', (l) => start(l, { name: 'A\u0000da', email: 'ada@example.com', consent: true }), 400, /NUL/],
      ['an unpaired surrogate in the email', (l) => start(l, { name: 'Ada', email: 'a\ud800@example.com', consent: true }), 400, /email/],
      ['an unpaired surrogate in the name', (l) => start(l, { name: 'A\udc00da', email: 'ada@example.com', consent: true }), 400, /name/],
      ['no JSON content type', (l) => t.http.post(`/i/${l}/start`).set('Content-Type', 'text/plain').send('{}'), 415, /application\/json/],
      ['malformed JSON', (l) => t.http.post(`/i/${l}/start`).set('Content-Type', 'application/json').send('{"name":'), 400, /not valid JSON/],
      ['a body over 16 KB', (l) => start(l, { name: 'Ada', email: 'ada@example.com', consent: true, pad: 'x'.repeat(17 * 1024) }), 413, /too large/],
    ])('refuses a start with %s (%i) and writes nothing', async (_case, send, status, message) => {
      const { links } = await setup();
      const before = await dbFingerprint(t.db);
      expectError(await send(links[0]), status, message);
      expect(await dbFingerprint(t.db)).toBe(before);
      expect((await session(links[0])).body.result.status).toBe('pending');
    });

    it.each<[string, unknown, number, RegExp]>([
      ['an empty answer', { content: '' }, 400, /content must be 1 to 4000/],
      ['a blank answer', { content: ' \n\t ' }, 400, /content must contain a non-whitespace character/],
      ['an answer over 4,000 characters', { content: 'a'.repeat(4001) }, 400, /content must be 1 to 4000/],
      ['an answer that is not text', { content: 42 }, 400, /content must be a string/],
      ['no answer', {}, 400, /content is required/],
      ['an unknown field', { content: 'hi', role: 'interviewer' }, 400, /unknown field "role"/],
      ['an unpaired surrogate', { content: 'a\ud800b' }, 400, /unpaired surrogates/],
    ])('refuses a reply with %s and writes nothing', async (_case, body, status, message) => {
      const { links } = await setup();
      await start(links[0]).expect(200);
      const before = await dbFingerprint(t.db);
      expectError(await t.http.post(`/i/${links[0]}/reply`).send(body as object), status, message);
      expect(await dbFingerprint(t.db)).toBe(before);
    });

    it('refuses fields on end', async () => {
      const { links } = await setup();
      await start(links[0]).expect(200);
      expectError(await t.http.post(`/i/${links[0]}/end`).send({ now: true }), 400, /now/);
      expect((await session(links[0])).body.result.status).toBe('started');
    });

    it('never shows the interviewee the guidelines, the owners, the agent or other invites', async () => {
      const { orgID, links } = await setup(2);
      await start(links[0]).expect(200);
      const page = (await t.http.get(`/i/${links[0]}`)).text;
      const json = JSON.stringify((await session(links[0])).body);
      for (const text of [page, json]) {
        for (const hidden of [...NOTES, orgID, 'owner_', links[1], 'default', 'guidelines']) expect({ hidden, shown: text.includes(hidden) }).toEqual({ hidden, shown: false });
      }
    });

    it('shows markup in answers as text in the page', async () => {
      const { links } = await setup();
      await start(links[0]).expect(200);
      const markup = '<img src=x onerror="alert(1)"> and <script>alert(2)</script> "quoted" & \'single\'';
      await reply(links[0], markup).expect(200);
      const page = (await t.http.get(`/i/${links[0]}`)).text;
      expect(page).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; and &lt;script&gt;alert(2)&lt;/script&gt; &quot;quoted&quot; &amp; &#39;single&#39;');
      expect(page).not.toContain('<img src=x');
      expect(page).not.toMatch(/<script>alert/);
    });

    it('serves the page under a strict Content-Security-Policy and keeps no copy of it in caches', async () => {
      const { links } = await setup();
      const page = await t.http.get(`/i/${links[0]}`);
      expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(page.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect((await session(links[0])).headers['cache-control']).toBe('no-store');
      for (const asset of ['/assets/room.js', '/assets/room.css']) {
        const res = await t.http.get(asset);
        expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
      }
      expect(page.text).toMatch(/<script src="\/assets\/room\.js" defer><\/script>/);
      expect(page.text).not.toMatch(/<script>|<style>| style="| on[a-z]+="/);
    });

    it('renders each state with its labels and buttons', async () => {
      const { links } = await setup();
      const pending = (await t.http.get(`/i/${links[0]}`)).text;
      for (const label of ['<label for="name">Name</label>', '<label for="email">Email</label>', 'Occupation <span class="optional">(optional)</span>', '>I agree', '>Start interview</button>']) {
        expect({ label, present: pending.includes(label) }).toEqual({ label, present: true });
      }
      await start(links[0]).expect(200);
      const started = (await t.http.get(`/i/${links[0]}`)).text;
      for (const label of ['<label for="answer" class="composer__label">Your answer</label>', '>Send</button>', '>End interview</button>', 'aria-live="polite"']) {
        expect({ label, present: started.includes(label) }).toEqual({ label, present: true });
      }
      expect(started).toContain('How did you first hear about the product?');
    });
  });

  it('documents its JSON under its own tag, with no bearer token', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    for (const [path, method] of [
      ['/i/{linkID}/session', 'get'],
      ['/i/{linkID}/start', 'post'],
      ['/i/{linkID}/reply', 'post'],
      ['/i/{linkID}/end', 'post'],
    ]) {
      expect({ path, tags: doc.paths[path][method].tags, security: doc.paths[path][method].security }).toEqual({ path, tags: ['interview room'], security: [] });
    }
    expect(doc.paths['/i/{linkID}']).toBeUndefined();
  });
});

describe('The interview room under load', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ ROOM_LINK_RATE_LIMIT_MAX: '3', ROOM_RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });

  afterAll(() => t.close());

  it('limits requests per link and per client address, with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.http.get('/i/link-one/session')).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    const limited = await t.http.get('/i/link-one/session');
    expectError(limited, 429, /rate limit/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The same address has now used its 5 on other links too: another link is refused for this address.
    expect((await t.http.get('/i/link-two/session')).status).toBe(429);
    // The page gets its 429 as a page.
    const page = await t.http.get('/i/link-three');
    expect(page.status).toBe(429);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('The interview room in the logs (the built server, its stdout)', () => {
  jest.setTimeout(90_000);
  let dir: string;
  let server: BuiltServer | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'irs-room-log-'));
  });

  afterAll(async () => {
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs room requests by their route template, /i/:linkID..., and never the link', async () => {
    server = await BuiltServer.start(dir, { DATABASE_URL: `sqlite:${join(dir, 'log.sqlite')}`, LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    const token = await server.firstRunToken();
    const api = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await fetch(`${server!.base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as { result: any };
    };
    const { productID } = (await api('POST', '/v1/products/addOne', { name: 'Logged', orgID: 'org_log' })).result;
    const { interviewID } = (await api('POST', '/v1/interviews/addOne', { productID, interviewName: 'Logged' })).result;
    const [url] = (await api('GET', `/v1/invites/createInvites?interviewID=${interviewID}&count=1`)).result as string[];
    const linkID = url.split('/').pop()!;
    const room = (path: string, body?: unknown) =>
      fetch(`${server!.base}/i/${linkID}${path}`, { method: body ? 'POST' : 'GET', headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect((await room('/session')).status).toBe(200);
    expect((await room('')).status).toBe(200);
    expect((await room('/start', { name: 'Ada', email: 'ada@example.com', consent: true })).status).toBe(200);
    expect((await room('/reply', { content: 'hello' })).status).toBe(200);
    // An unknown room path: no route, so the path is not logged at all.
    expect((await room('/nothing-here')).status).toBe(404);

    // The lines are written asynchronously: wait until all five are there.
    const requestLines = () =>
      server!.output
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; route?: string; req?: { method: string }; res?: { statusCode: number } })
        .filter((l) => l.msg === 'request' && (l.route!.startsWith('/i/') || l.res?.statusCode === 404));
    const lines = await server.waitFor('the room request lines', () => (requestLines().length >= 5 ? requestLines() : undefined), 10_000);
    expect(lines.map((l) => `${l.req!.method} ${l.route} ${l.res!.statusCode}`)).toEqual([
      'GET /i/:linkID/session 200',
      'GET /i/:linkID 200',
      'POST /i/:linkID/start 200',
      'POST /i/:linkID/reply 200',
      'GET (no route) 404',
    ]);
    expect(server.output).not.toContain(linkID);
  });
});

describe('The interview room with an LLM interviewer agent', () => {
  let t: TestApp;
  let admin: string;
  let model: Server;
  let failing = false;
  const seen: { system: string; last: string }[] = [];
  const env: Record<string, string> = { IRS_E2E_ROOM_KEY: 'sk-room-e2e-not-a-real-key' };

  beforeAll(async () => {
    // An OpenAI-compatible chat-completions server, as vLLM or Ollama would answer.
    model = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        if (failing) return void res.writeHead(500).end('{"error":"overloaded"}');
        const { messages } = JSON.parse(body) as { messages: { role: string; content: string }[] };
        const system = messages[0].content;
        const answers = messages.filter((m) => m.role === 'user').length - 1;
        seen.push({ system, last: messages.at(-1)!.content });
        const content = system.includes('You summarise')
          ? { background: 'Ten years in B2B research.', productAlignment: 'Uses it daily for notes.', key_values: ['speed'], interests: ['chess'] }
          : { message: answers < 2 ? `Model question ${answers + 1}?` : 'Model says thank you.', done: answers >= 2 };
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) } }] }));
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    env.INTERVIEWER_AGENTS = JSON.stringify({ llm: { kind: 'openai', baseUrl, model: 'test-model', apiKeyEnv: 'IRS_E2E_ROOM_KEY', timeoutMs: 2000 } });
  });

  useTestApp((app) => ({ t, admin } = app), env);

  afterAll(async () => {
    await new Promise((resolve) => model.close(resolve));
  });

  it("lets the model conduct the interview and fills the profile's details from its summary", async () => {
    const productID = await makeProduct(t, admin, { orgID: uniq('org'), name: 'Acme Notes', desc: 'Notes for research teams' });
    const interviewID = await makeInterview(t, admin, productID, { guidelines: 'Find out how they take notes.' });
    await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, interviewer: 'llm' }).expect(200);
    const [url] = (await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin))).body.result;
    const linkID = new URL(url).pathname.split('/').pop()!;

    const started = await t.http.post(`/i/${linkID}/start`).send({ name: 'Ada Lovelace', email: 'ada@example.com', consent: true });
    expect(started.body.result.conversation[1]).toEqual({ role: 'interviewer', content: 'Model question 1?' });
    expect((await t.http.post(`/i/${linkID}/reply`).send({ content: 'On paper, mostly, and then I type them up.' })).body.result.turns[1].content).toBe('Model question 2?');
    const last = await t.http.post(`/i/${linkID}/reply`).send({ content: 'Search is what I miss most.' });
    expect(last.body.result).toEqual({
      status: 'completed',
      turns: [{ role: 'interviewee', content: 'Search is what I miss most.' }, { role: 'interviewer', content: 'Model says thank you.' }],
      // Only the built-in agent's script says where it stands.
      progress: null,
      redirectUrl: null,
    });

    // The model was told the product and the guidelines, and never the email or the organization.
    expect(seen[0].system).toContain('Acme Notes');
    expect(seen[0].system).toContain('Find out how they take notes.');
    expect(JSON.stringify(seen)).not.toContain('ada@example.com');

    const [profile] = (await t.http.get('/v1/profiles/getList').query({ productID }).set(bearer(admin))).body.result;
    expect(profile.details).toEqual({
      occupation: null,
      location: null,
      background: 'Ten years in B2B research.',
      productAlignment: 'Uses it daily for notes.',
      key_values: ['speed'],
      interests: ['chess'],
    });
  });

  it('falls back to the built-in agent for a turn the model cannot give', async () => {
    const productID = await makeProduct(t, admin, { orgID: uniq('org'), name: 'Acme Notes' });
    const interviewID = await makeInterview(t, admin, productID, { guidelines: '1. What do you like about it?' });
    await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, interviewer: 'llm' }).expect(200);
    const [url] = (await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin))).body.result;
    const linkID = new URL(url).pathname.split('/').pop()!;
    failing = true;
    try {
      const started = await t.http.post(`/i/${linkID}/start`).send({ name: 'Ada', email: 'ada2@example.com', consent: true });
      expect(started.status).toBe(200);
      expect(started.body.result.conversation[1].content).toMatch(/^Hello Ada, .*What do you like about it\?$/);
    } finally {
      failing = false;
    }
  });
});
