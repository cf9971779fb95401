import { TestApp, bearer, expectError, scopedToken, uniq, useTestApp } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { waitFor } from './helpers/wait';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE } from '../src/config/engine';
import { BuiltServer } from './helpers/built-server';
import { PANEL_REDIRECTS as REDIRECTS, SCREENER } from './helpers/recruitment';

/** Several processes sharing one database: MySQL/MariaDB (the embedded database belongs to one process). */
const onMysql = ENGINE === 'mysql' ? it : it.skip;

const GUIDELINES = ['1. What made you try the product?', '2. What would you change about it?'].join('\n');
const LONG = 'It came up in a team meeting when we were comparing tools for research notes and planning.';

describe('Recruitment through panels', () => {
  let t: TestApp;
  let admin: string;
  // One address makes every arrival here: the per-address limit is the subject of other suites.
  useTestApp((app) => ({ t, admin } = app), { ROOM_RATE_LIMIT_MAX: '100000' });

  async function interview(orgID = uniq('org')) {
    const productID = await makeProduct(t, admin, { orgID, name: 'Acme Kits' });
    const interviewID = await makeInterview(t, admin, productID, { interviewName: 'Meal kits', guidelines: GUIDELINES });
    return { orgID, productID, interviewID };
  }

  const setRecruitment = (body: Record<string, unknown>, token = admin) => t.http.post('/v1/interviews/setRecruitment').set(bearer(token)).send(body);

  async function recruit(settings: Record<string, unknown> = {}) {
    const ids = await interview();
    const res = await setRecruitment({ interviewID: ids.interviewID, open: true, passthrough: ['STUDY_ID'], redirects: REDIRECTS, ...settings });
    expect(res.status).toBe(200);
    return { ...ids, openPath: new URL(res.body.result.openURL).pathname, recruitment: res.body.result };
  }

  /** The invites of an interview, as the API lists them. */
  const invites = async (interviewID: string, query: Record<string, string> = {}) =>
    (await t.http.get('/v1/invites/getList').query({ interviewID, ...query }).set(bearer(admin))).body.result as Record<string, unknown>[];

  /** An arrival with the screener's answers (each value an option, or a list of them for a multiple question). */
  const arrive = (openPath: string, query: Record<string, string | string[]>) => t.http.get(openPath).query(query);
  const screened = (answers: Record<string, string | string[]>) => ({
    irs_screened: '1',
    ...Object.fromEntries(Object.entries(answers).map(([id, value]) => [`irs_q_${id}`, value])),
  });

  describe('setRecruitment and getRecruitment', () => {
    it('stores the settings and returns them with an open link that stays the same across updates', async () => {
      const { interviewID, recruitment } = await recruit({ screener: SCREENER, quotas: [{ quotaID: 'weekly', screenerID: 'frequency', options: ['Weekly'], max: 5 }], limit: 100 });
      expect(recruitment).toEqual({
        interviewID,
        open: true,
        openURL: expect.stringMatching(/^http:\/\/localhost:\d+\/s\/[A-Za-z0-9_-]{32}$/),
        participantParam: 'pid',
        passthrough: ['STUDY_ID'],
        limit: 100,
        screener: SCREENER,
        quotas: [{ quotaID: 'weekly', screenerID: 'frequency', options: ['Weekly'], max: 5 }],
        redirects: REDIRECTS,
      });
      const again = await setRecruitment({ interviewID, open: false, participantParam: 'PROLIFIC_PID' });
      expect(again.status).toBe(200);
      expect(again.body.result.openURL).toBe(recruitment.openURL);
      const read = await t.http.get('/v1/interviews/getRecruitment').query({ interviewID }).set(bearer(admin));
      expect(read.body.result).toEqual({
        interviewID,
        open: false,
        openURL: recruitment.openURL,
        participantParam: 'PROLIFIC_PID',
        passthrough: [],
        limit: null,
        screener: [],
        quotas: [],
        redirects: { completed: null, screenout: null, overquota: null, quality: null, abandoned: null },
      });
    });

    it.each([
      ['an http redirect', { redirects: { completed: 'http://panel.example/done' } }, /redirects\.completed must be an absolute https URL without credentials/],
      ['a redirect with credentials', { redirects: { completed: 'https://user:pw@panel.example/done' } }, /redirects\.completed must be an absolute https URL without credentials/],
      ['an unknown placeholder', { redirects: { completed: 'https://panel.example/done?x={unknown}' } }, /redirects\.completed uses \{unknown\}/],
      ['a placeholder in the host', { redirects: { completed: 'https://{pid}.panel.example/done' } }, /redirects\.completed must keep its placeholders in the path/],
      ['a quota of an unknown question', { quotas: [{ quotaID: 'q', screenerID: 'age', options: ['x'], max: 1 }] }, /quotas\.0\.screenerID "age" is not a question of the screener/],
      ['a quota of an unknown option', { screener: SCREENER, quotas: [{ quotaID: 'q', screenerID: 'frequency', options: ['Daily'], max: 1 }] }, /quotas\.0\.options\.0 "Daily" is not an option/],
      ['a quota of no places', { screener: SCREENER, quotas: [{ quotaID: 'q', screenerID: 'frequency', options: ['Weekly'], max: 0 }] }, /quotas\.0\.max must be a whole number from 1/],
      ['a limit of 0', { limit: 0 }, /limit must be a whole number from 1/],
      ['11 passthrough names', { passthrough: Array.from({ length: 11 }, (_, i) => `p${i}`) }, /passthrough must hold at most 10 names/],
      ['a passthrough name that is the participant parameter', { passthrough: ['pid'] }, /passthrough\.0 repeats participantParam/],
      ['a parameter name with a space', { participantParam: 'bad name' }, /participantParam must be 1 to 64 letters/],
      ['a question nobody qualifies for', { screener: [{ ...SCREENER[0], options: [{ option: 'A', qualifies: false }, { option: 'B', qualifies: false }] }] }, /screener\.0\.options must hold an option that qualifies/],
      ['11 screener questions', { screener: Array.from({ length: 11 }, (_, i) => ({ ...SCREENER[0], screenerID: `s${i}` })) }, /screener must hold at most 10 questions/],
    ] as const)('refuses %s with 400 and stores nothing', async (_label, settings, message) => {
      const { interviewID } = await interview();
      expectError(await setRecruitment({ interviewID, open: true, ...settings }), 400, message);
      expectError(await t.http.get('/v1/interviews/getRecruitment').query({ interviewID }).set(bearer(admin)), 404);
    });

    it('is 404 for an interview of another organization', async () => {
      const { interviewID } = await interview();
      const token = await scopedToken(t, { orgID: uniq('other') });
      expectError(await setRecruitment({ interviewID, open: true }, token), 404);
      expectError(await t.http.get('/v1/interviews/getRecruitment').query({ interviewID }).set(bearer(token)), 404);
    });
  });

  describe('the open link /s/{openID}', () => {
    it('shows the screener before the consent, then makes an invite and sends the browser to its room', async () => {
      const { interviewID, openPath } = await recruit({ screener: SCREENER });
      const page = await arrive(openPath, { pid: 'P-1', STUDY_ID: 'S 9', lang: 'de' });
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(page.text).toContain('How often do you order meal kits?');
      expect(page.text).toContain('Zuerst ein paar Fragen');
      expect(page.text).toContain('name="pid" value="P-1"');
      expect(page.text).not.toContain('I agree');
      expect(await invites(interviewID)).toEqual([]);

      const go = await arrive(openPath, { pid: 'P-1', STUDY_ID: 'S 9', ...screened({ frequency: 'Weekly', devices: ['Phone', 'Laptop'] }) });
      expect(go.status).toBe(303);
      const room = new URL(go.headers.location);
      expect(room.pathname).toMatch(/^\/i\/[A-Za-z0-9_-]{32}$/);
      const [made] = await invites(interviewID);
      expect(made).toMatchObject({
        linkID: room.pathname.split('/').pop(),
        status: 'pending',
        source: 'open',
        participantID: 'P-1',
        passthrough: { STUDY_ID: 'S 9' },
        screener: [
          { screenerID: 'frequency', options: ['Weekly'] },
          { screenerID: 'devices', options: ['Phone', 'Laptop'] },
        ],
        segment: 'Weekly; Phone; Laptop',
        quality: null,
      });
    });

    it('sends the same participant back to the same invite, never a second one', async () => {
      const { interviewID, openPath } = await recruit();
      const first = await arrive(openPath, { pid: 'same' });
      const second = await arrive(openPath, { pid: 'same' });
      expect(first.status).toBe(303);
      expect(second.headers.location).toBe(first.headers.location);
      const parallel = await Promise.all(Array.from({ length: 5 }, () => arrive(openPath, { pid: 'twin' })));
      expect(new Set(parallel.map((r) => r.headers.location)).size).toBe(1);
      expect((await invites(interviewID)).length).toBe(2);
    });

    it('screens out a person who does not qualify: status screenedout, the screen-out redirect, the same again', async () => {
      const { interviewID, openPath } = await recruit({ screener: SCREENER });
      const res = await arrive(openPath, { pid: 'no/1', ...screened({ frequency: 'Never', devices: 'Phone' }) });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('https://panel.example/screenout?pid=no%2F1');
      const again = await arrive(openPath, { pid: 'no/1' });
      expect(again.headers.location).toBe('https://panel.example/screenout?pid=no%2F1');
      expect(await invites(interviewID)).toEqual([expect.objectContaining({ status: 'screenedout', participantID: 'no/1', segment: 'Never; Phone' })]);
    });

    it('shows the screener again when a question is left unanswered, and makes no invite', async () => {
      const { interviewID, openPath } = await recruit({ screener: SCREENER });
      const res = await arrive(openPath, { pid: 'half', ...screened({ frequency: 'Weekly' }) });
      expect(res.status).toBe(200);
      expect(res.text).toContain('Please answer every question.');
      expect(await invites(interviewID)).toEqual([]);
    });

    it('without the participant id: a 400 page; closed: a 410 page; unknown: 404; none makes an invite', async () => {
      const { interviewID, openPath } = await recruit();
      const missing = await arrive(openPath, {});
      expect(missing.status).toBe(400);
      expect(missing.text).toContain('This link is incomplete');
      await setRecruitment({ interviewID, open: false });
      const closed = await arrive(openPath, { pid: 'late' });
      expect(closed.status).toBe(410);
      expect(closed.text).toContain('This study is closed');
      expect((await arrive('/s/nothing-here', { pid: 'x' })).status).toBe(404);
      expect(await invites(interviewID)).toEqual([]);
    });

    it('gives a screened-out person their page when there is no redirect', async () => {
      const { openPath } = await recruit({ screener: SCREENER, redirects: null });
      const res = await arrive(openPath, { pid: 'p', ...screened({ frequency: 'Never', devices: 'Phone' }) });
      expect(res.status).toBe(200);
      expect(res.text).toContain('This study is looking for other participants.');
    });
  });

  describe('quotas and the limit', () => {
    it('50 parallel arrivals for 5 places of a quota: exactly 5 invites, 45 over quota', async () => {
      const { interviewID, openPath } = await recruit({ screener: SCREENER, quotas: [{ quotaID: 'weekly', screenerID: 'frequency', options: ['Weekly'], max: 5 }] });
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => arrive(openPath, { pid: `q${i}`, ...screened({ frequency: 'Weekly', devices: 'Phone' }) })));
      const rooms = answers.filter((r) => r.status === 303 && new URL(r.headers.location).pathname.startsWith('/i/'));
      const full = answers.filter((r) => r.headers.location?.startsWith('https://panel.example/full?pid=q'));
      expect({ rooms: rooms.length, full: full.length }).toEqual({ rooms: 5, full: 45 });
      const all = await invites(interviewID);
      expect(all.filter((i) => i.status === 'pending').length).toBe(5);
      expect(all.filter((i) => i.status === 'overquota').length).toBe(45);
      // Another cell is not full.
      const monthly = await arrive(openPath, { pid: 'm1', ...screened({ frequency: 'Monthly', devices: 'Phone' }) });
      expect(new URL(monthly.headers.location).pathname).toMatch(/^\/i\//);
    }, 60_000);

    onMysql('holds a quota exactly with the arrivals spread over three processes of the service', async () => {
      const { interviewID, openPath } = await recruit({ screener: SCREENER, quotas: [{ quotaID: 'weekly', screenerID: 'frequency', options: ['Weekly'], max: 5 }] });
      const cwd = mkdtempSync(join(tmpdir(), 'irs-recruit-'));
      const servers = await Promise.all([1, 2].map(() => BuiltServer.start(cwd, { DATABASE_URL: process.env.DATABASE_URL!, ROOM_RATE_LIMIT_MAX: '100000' })));
      try {
        const query = (i: number) => new URLSearchParams({ pid: `mp${i}`, irs_screened: '1', irs_q_frequency: 'Weekly', irs_q_devices: 'Phone' }).toString();
        // A third of the arrivals to this process, a third to each of the others, all at once.
        const answers = await Promise.all(
          Array.from({ length: 60 }, async (_, i) => {
            if (i % 3 === 0) return (await arrive(openPath, Object.fromEntries(new URLSearchParams(query(i))))).headers.location as string;
            const res = await fetch(`${servers[i % 3 === 1 ? 0 : 1].base}${openPath}?${query(i)}`, { redirect: 'manual' });
            return res.headers.get('location') ?? `status ${res.status}`;
          }),
        );
        expect(answers.filter((where) => new URL(where, 'http://x').pathname.startsWith('/i/')).length).toBe(5);
        expect(answers.filter((where) => where.startsWith('https://panel.example/full?pid=mp')).length).toBe(55);
        expect((await invites(interviewID)).filter((i) => i.status === 'pending').length).toBe(5);
      } finally {
        await Promise.all(servers.map((server) => server.kill()));
        rmSync(cwd, { recursive: true, force: true });
      }
    }, 180_000);

    it('counts started and completed invites against the limit, and a start past a full limit is over quota', async () => {
      const { interviewID, openPath } = await recruit({ limit: 1 });
      const first = new URL((await arrive(openPath, { pid: 'a' })).headers.location).pathname.split('/').pop()!;
      const full = await arrive(openPath, { pid: 'b' });
      expect(full.headers.location).toBe('https://panel.example/full?pid=b');
      const start = await t.http.post(`/i/${first}/start`).send({ name: 'Ada', email: 'ada@example.com', consent: true });
      expect(start.body.result.status).toBe('started');
      expect((await arrive(openPath, { pid: 'c' })).headers.location).toBe('https://panel.example/full?pid=c');
      expect((await invites(interviewID)).map((i) => i.status).sort()).toEqual(['overquota', 'overquota', 'started']);
    });
  });

  describe('the room of an open link\'s invite', () => {
    it('sends a completed interview to the completion redirect with the participant id and passthrough values', async () => {
      const { openPath } = await recruit();
      const linkID = new URL((await arrive(openPath, { pid: 'done 1', STUDY_ID: 'st&1' })).headers.location).pathname.split('/').pop()!;
      await t.http.post(`/i/${linkID}/start`).send({ name: 'Ada', email: 'ada@example.com', consent: true });
      await t.http.post(`/i/${linkID}/reply`).send({ content: LONG, typedChars: LONG.length, pastedChars: 0, durationMs: 30_000 });
      const ended = await t.http.post(`/i/${linkID}/end`).send({});
      expect(ended.body.result).toMatchObject({ status: 'completed', redirectUrl: 'https://panel.example/complete?cc=DONE&pid=done%201&study=st%261' });
      expect((await arrive(openPath, { pid: 'done 1' })).headers.location).toBe('https://panel.example/complete?cc=DONE&pid=done%201&study=st%261');
    });
  });

  describe('quality', () => {
    /** A started invite of a fresh link of the interview. */
    async function started(interviewID: string, email = `${uniq('p')}@example.com`) {
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin));
      const linkID = new URL(res.body.result[0]).pathname.split('/').pop()!;
      expect((await t.http.post(`/i/${linkID}/start`).send({ name: 'Ada', email, consent: true })).status).toBe(200);
      return linkID;
    }
    const answer = (linkID: string, content: string, signals: Record<string, number>) => t.http.post(`/i/${linkID}/reply`).send({ content, ...signals });
    const quality = async (linkID: string) => (await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin))).body.result.quality;
    const typed = (text: string, seconds: number) => ({ typedChars: text.length, pastedChars: 0, durationMs: seconds * 1000 });

    it('raises no flag on an interview typed at a person\'s pace', async () => {
      const { interviewID } = await interview();
      const linkID = await started(interviewID);
      expect((await answer(linkID, LONG, typed(LONG, 40))).status).toBe(200);
      expect(await quality(linkID)).toEqual({ score: 1, flags: [] });
    });

    it.each([
      ['pasted', LONG, { typedChars: 3, pastedChars: LONG.length, durationMs: 5000 }],
      ['pasted', LONG, { typedChars: 0, pastedChars: 0, durationMs: 5000 }],
      ['too_fast', LONG, { typedChars: LONG.length, pastedChars: 0, durationMs: 1000 }],
      ['low_effort', 'sdfghjkl qwrtzpsd 1234 ....', { typedChars: 26, pastedChars: 0, durationMs: 10_000 }],
    ] as const)('raises %s from its signal', async (flag, content, signals) => {
      const { interviewID } = await interview();
      const linkID = await started(interviewID);
      expect((await answer(linkID, content, signals)).status).toBe(200);
      expect(await quality(linkID)).toEqual({ score: 0.75, flags: [flag] });
    });

    it('raises duplicate_answer on an answer of 8+ words another invite gave, and duplicate_participant on a second invite of one e-mail', async () => {
      const { interviewID } = await interview();
      const first = await started(interviewID, 'Twin@Example.com');
      await answer(first, LONG, typed(LONG, 40));
      const second = await started(interviewID, 'twin@example.com');
      expect(await quality(second)).toEqual({ score: 0.75, flags: ['duplicate_participant'] });
      await answer(second, LONG, typed(LONG, 40));
      expect(await quality(second)).toEqual({ score: 0.5, flags: ['duplicate_answer', 'duplicate_participant'] });
      expect(await quality(first)).toEqual({ score: 1, flags: [] });
      // Raised once: another duplicate answer leaves the flag and the score as they are.
      await answer(second, LONG, typed(LONG, 40));
      expect(await quality(second)).toEqual({ score: 0.5, flags: ['duplicate_answer', 'duplicate_participant'] });
    });

    it('compares addresses trimmed and in any case, within the interview only, and forgets an erased person\'s address', async () => {
      const { interviewID, orgID } = await interview();
      const first = await started(interviewID, '  Same.Person@Example.com\t');
      // Its own address is no duplicate: the start's check runs before the address is kept.
      expect((await quality(first))?.flags ?? []).toEqual([]);
      const second = await started(interviewID, 'same.person@EXAMPLE.COM');
      expect(await quality(second)).toEqual({ score: 0.75, flags: ['duplicate_participant'] });
      // Another interview's invites are no one to compare with.
      const elsewhere = await started((await interview()).interviewID, 'same.person@example.com');
      expect((await quality(elsewhere))?.flags ?? []).toEqual([]);

      // Once the person is erased, no invite of the interview holds the address: the next to start with it is not flagged.
      expect((await t.http.post('/v1/participants/erase').set(bearer(admin)).send({ email: 'Same.Person@example.com', orgID })).body.result).toMatchObject({ invites: 2 });
      const after = await started(interviewID, 'same.person@example.com');
      expect((await quality(after))?.flags ?? []).toEqual([]);
      // And the one after that is, by the address kept for it.
      expect(await quality(await started(interviewID, 'SAME.person@example.com'))).toEqual({ score: 0.75, flags: ['duplicate_participant'] });
    });

    it('compares answers exactly, never with the invite\'s own, and forgets an erased invite\'s answers', async () => {
      const { interviewID, orgID } = await interview();
      const first = await started(interviewID);
      // The same answer twice in one interview is not a duplicate of another invite's.
      await answer(first, LONG, typed(LONG, 40));
      await answer(first, LONG, typed(LONG, 40));
      expect(await quality(first)).toEqual({ score: 1, flags: [] });
      // Equal means equal, on both engines: another case is another answer.
      const shouting = await started(interviewID);
      await answer(shouting, LONG.toUpperCase(), typed(LONG, 40));
      expect(await quality(shouting)).toEqual({ score: 1, flags: [] });
      const copy = await started(interviewID);
      await answer(copy, LONG, typed(LONG, 40));
      expect(await quality(copy)).toEqual({ score: 0.75, flags: ['duplicate_answer'] });

      // Once both who gave it are erased, no one holds the answer: the next to give it is not flagged.
      for (const linkID of [first, copy]) {
        const { email } = (await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin))).body.result.userInfo;
        expect((await t.http.post('/v1/participants/erase').set(bearer(admin)).send({ email, orgID })).body.result).toMatchObject({ invites: 1 });
      }
      const after = await started(interviewID);
      await answer(after, LONG, typed(LONG, 40));
      expect(await quality(after)).toEqual({ score: 1, flags: [] });
    });

    it('sends a flagged open link invite to the quality redirect', async () => {
      const { openPath } = await recruit();
      const linkID = new URL((await arrive(openPath, { pid: 'bot' })).headers.location).pathname.split('/').pop()!;
      await t.http.post(`/i/${linkID}/start`).send({ name: 'Bot', email: 'bot@example.com', consent: true });
      await answer(linkID, LONG, { typedChars: 0, pastedChars: LONG.length, durationMs: 2000 });
      const ended = await t.http.post(`/i/${linkID}/end`).send({});
      expect(ended.body.result).toMatchObject({ status: 'completed', redirectUrl: 'https://panel.example/quality?pid=bot' });
    });
  });

  describe('reports', () => {
    it('leave flagged invites out unless asked, count them, and count each segment', async () => {
      const { interviewID } = await interview();
      const make = async (segment: string, email: string, content: string, signals: Record<string, number>) => {
        const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1, segment }).set(bearer(admin));
        const linkID = new URL(res.body.result[0]).pathname.split('/').pop()!;
        await t.http.post(`/i/${linkID}/start`).send({ name: 'Ada', email, consent: true });
        expect((await t.http.post(`/i/${linkID}/reply`).send({ content, ...signals })).status).toBe(200);
        expect((await t.http.post(`/i/${linkID}/end`).send({})).body.result.status).toBe('completed');
      };
      const human = (text: string) => ({ typedChars: text.length, pastedChars: 0, durationMs: 60_000 });
      const a = 'The price went up twice this year and the boxes kept arriving late on Fridays.';
      const b = 'We moved to a smaller flat and cooking for two with the kits felt wasteful.';
      const c = 'Honestly I found a cheaper supermarket delivery that does the same job for us.';
      await make('churned', 'one@example.com', a, human(a));
      await make('churned', 'two@example.com', b, { typedChars: 0, pastedChars: b.length, durationMs: 3000 });
      await make('active', 'three@example.com', c, human(c));

      const run = async (body: Record<string, unknown>) => {
        const res = await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID, ...body });
        expect(res.status).toBe(201);
        const reportID = res.body.result.reportID;
        return waitFor('the report', async () => {
          const r = (await t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(admin))).body.result;
          return r.status === 'completed' ? r : undefined;
        }, 30_000);
      };
      const without = await run({});
      expect(without.includeFlagged).toBe(false);
      expect(without.result.invites).toMatchObject({ total: 3, completed: 3, flagged: 1, screenedout: 0, overquota: 0 });
      expect(without.result.questions[0].answered).toBe(2);
      expect(without.result.segments.map((s: Record<string, unknown>) => [s.segment, s.invites, s.completed])).toEqual([
        ['active', 1, 1],
        ['churned', 2, 2],
      ]);
      for (const segment of without.result.segments) for (const theme of segment.themes) expect(theme.answers).toBeLessThanOrEqual(segment.invites);

      const withFlagged = await run({ includeFlagged: true });
      expect(withFlagged.includeFlagged).toBe(true);
      expect(withFlagged.result.invites).toMatchObject({ total: 3, flagged: 1 });
      expect(withFlagged.result.questions[0].answered).toBe(3);
    }, 60_000);
  });

  describe('segments', () => {
    it('createInvites takes a segment, and getList filters by it', async () => {
      const { interviewID } = await interview();
      expect((await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 2, segment: 'churned' }).set(bearer(admin))).status).toBe(200);
      expect((await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin))).status).toBe(200);
      const churned = await invites(interviewID, { segment: 'churned' });
      expect(churned.map((i) => [i.segment, i.source, i.participantID])).toEqual([
        ['churned', 'link', null],
        ['churned', 'link', null],
      ]);
      expect((await invites(interviewID)).length).toBe(3);
      expectError(await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1, segment: 'x'.repeat(101) }).set(bearer(admin)), 400, /segment/);
    });
  });
});
