import { TestApp, bearer, expectError, tableCounts, uniq, useTestApp } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';

const PERSON = { name: 'Aiko Tanaka', email: 'aiko@example.com', consent: true };
const TWELVE = ['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'tr', 'ja', 'zh', 'ar'];

describe('Fieldwork in many languages', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  async function setup(interview: Record<string, unknown> = {}, count = 1) {
    const productID = await makeProduct(t, admin, { orgID: uniq('org'), name: 'Acme Notes' });
    const interviewID = await makeInterview(t, admin, productID, { interviewName: 'Internal: churn cohort Q3', guidelines: null, ...interview });
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count }).set(bearer(admin));
    const links: string[] = res.body.result.map((url: string) => new URL(url).pathname.split('/').pop());
    return { productID, interviewID, links };
  }
  const update = (body: Record<string, unknown>) => t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send(body);
  const read = async (interviewID: string) => (await t.http.get('/v1/interviews/getOne').query({ interviewID }).set(bearer(admin))).body.result;
  const session = (linkID: string, lang?: string, accept?: string) => {
    const req = t.http.get(`/i/${linkID}/session`).query(lang === undefined ? {} : { lang });
    return accept === undefined ? req : req.set('Accept-Language', accept);
  };

  describe('GET /v1/languages/getList', () => {
    it('lists at least the twelve languages, by their own names, Arabic right to left', async () => {
      const res = await t.http.get('/v1/languages/getList').set(bearer(admin));
      expect(res.status).toBe(200);
      const list = res.body.result as { language: string; name: string; direction: string }[];
      expect(list.map((l) => l.language)).toEqual(expect.arrayContaining(TWELVE));
      expect(list[0]).toEqual({ language: 'en', name: 'English', direction: 'ltr' });
      expect(list.find((l) => l.language === 'ja')).toEqual({ language: 'ja', name: '日本語', direction: 'ltr' });
      expect(list.find((l) => l.language === 'ar')).toEqual({ language: 'ar', name: 'العربية', direction: 'rtl' });
      expect(list.filter((l) => l.direction === 'rtl').map((l) => l.language)).toEqual(['ar']);
    });

    it('needs a token and takes no parameters', async () => {
      expectError(await t.http.get('/v1/languages/getList'), 401);
      expectError(await t.http.get('/v1/languages/getList').query({ page: 2 }).set(bearer(admin)), 400);
    });
  });

  describe("an interview's fieldwork settings", () => {
    it('stores language, publicTitle, consentText and completionRedirectUrl, and null resets each', async () => {
      const { interviewID } = await setup({
        language: 'de',
        publicTitle: 'Ihre ersten Wochen',
        consentText: 'Wir zeichnen dieses Gespräch auf.',
        completionRedirectUrl: 'https://panel.example/done?pid=7',
      });
      expect(await read(interviewID)).toMatchObject({
        language: 'de',
        publicTitle: 'Ihre ersten Wochen',
        consentText: 'Wir zeichnen dieses Gespräch auf.',
        completionRedirectUrl: 'https://panel.example/done?pid=7',
      });
      expect((await update({ interviewID, language: 'auto', publicTitle: 'Neu' })).status).toBe(200);
      expect(await read(interviewID)).toMatchObject({ language: 'auto', publicTitle: 'Neu', consentText: 'Wir zeichnen dieses Gespräch auf.' });
      expect((await update({ interviewID, language: null, publicTitle: null, consentText: null, completionRedirectUrl: null })).status).toBe(200);
      expect(await read(interviewID)).toMatchObject({ language: 'auto', publicTitle: null, consentText: null, completionRedirectUrl: null });
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ['an unsupported language', { language: 'sv' }, /language must be auto or one of en, es/],
      ['a language that is not a string', { language: ['ja'] }, /language/],
      ['a tag in another case', { language: 'JA' }, /language/],
      ['an http redirect', { completionRedirectUrl: 'http://panel.example/done' }, /completionRedirectUrl must be an absolute https URL/],
      ['a relative redirect', { completionRedirectUrl: '/done' }, /completionRedirectUrl/],
      ['a javascript: redirect', { completionRedirectUrl: 'javascript:alert(1)' }, /completionRedirectUrl/],
      ['a redirect over 2,048 characters', { completionRedirectUrl: `https://panel.example/${'a'.repeat(2048)}` }, /completionRedirectUrl must be at most 2048/],
      ['a public title over 200 characters', { publicTitle: 'x'.repeat(201) }, /publicTitle must be at most 200/],
      ['a consent text over 4,000 characters', { consentText: 'x'.repeat(4001) }, /consentText must be at most 4000/],
    ])('refuses %s with 400 and changes nothing', async (_name, fields, message) => {
      const { interviewID } = await setup();
      const before = await read(interviewID);
      const counts = await tableCounts(t.db);
      expectError(await update({ interviewID, ...fields }), 400, message);
      expect(await read(interviewID)).toEqual(before);
      const productID = before.productID;
      expectError(await t.http.post('/v1/interviews/addOne').set(bearer(admin)).send({ productID, interviewName: 'x', ...fields }), 400, message);
      expect(await tableCounts(t.db)).toEqual(counts);
    });
  });

  describe("the room's language", () => {
    it('follows ?lang=, then the whole Accept-Language list by quality, then English, until the start', async () => {
      const { links } = await setup();
      const [linkID] = links;
      expect((await session(linkID)).body.result).toMatchObject({ language: 'en', direction: 'ltr' });
      expect((await session(linkID, undefined, 'sv-SE,sv;q=0.9,ja;q=0.5,de;q=0.7')).body.result.language).toBe('de');
      expect((await session(linkID, 'es', 'ja')).body.result.language).toBe('es');
      expect((await session(linkID, 'pt-BR')).body.result.language).toBe('pt');
      // An unsupported ?lang= is passed over, not an error.
      expect((await session(linkID, 'sv', 'ar')).body.result).toMatchObject({ language: 'ar', direction: 'rtl' });
      const page = await t.http.get(`/i/${linkID}`).set('Accept-Language', 'ar');
      expect(page.text).toMatch(/<html lang="ar" dir="rtl">/);
      expect(page.headers.vary).toMatch(/Accept-Language/i);
    });

    it('is fixed at the start and recorded with the invite: later requests in other languages do not change it', async () => {
      const { links, interviewID } = await setup({ guidelines: '1. 最初にどこで知りましたか？\n2. 何に使っていますか？' });
      const [linkID] = links;
      const started = await t.http.post(`/i/${linkID}/start`).set('Accept-Language', 'ja,en;q=0.5').send(PERSON);
      expect(started.status).toBe(200);
      expect(started.body.result).toMatchObject({ status: 'started', language: 'ja', progress: { asked: 1, total: 2 } });
      const [consent, opening] = started.body.result.conversation;
      // The prefix stays English for the team; the text is the Japanese default that was shown.
      expect(consent.content).toMatch(/^Consent given \d{4}-.*Z: このインタビューは自動インタビュアーが行います。/);
      expect(opening.content).toBe('Aikoさん、こんにちは。Acme Notes についてお話しする時間をいただき、ありがとうございます。最初にどこで知りましたか？');
      expect((await session(linkID, 'es', 'de')).body.result.language).toBe('ja');
      const page = await t.http.get(`/i/${linkID}?lang=es`);
      expect(page.text).toMatch(/<html lang="ja" dir="ltr">/);
      expect(page.text).toContain('質問 1 / 2');

      // A short Japanese answer (under 8 words at 2 characters a word) is probed, in Japanese.
      const short = await t.http.post(`/i/${linkID}/reply`).send({ content: '友達から。' });
      expect(short.body.result.turns[1].content).toBe('それについて、もう少し詳しく教えていただけますか？');
      const long = await t.http.post(`/i/${linkID}/reply`).send({ content: '同僚がチームの会議で紹介してくれて、その日のうちに使い始めました。' });
      expect(long.body.result).toMatchObject({ progress: { asked: 2, total: 2 } });
      expect(long.body.result.turns[1].content).toBe('何に使っていますか？');

      const rows = await t.http.get('/v1/interviews/getAnswers').query({ interviewID }).set(bearer(admin));
      expect(rows.status).toBe(200);
      expect(rows.body.result.length).toBeGreaterThan(0);
      // Japanese answers are scored too (issue 29: every supported language).
      for (const row of rows.body.result) expect(row).toMatchObject({ language: 'ja', sentiment: expect.any(Number) });
    });

    it("takes the page's language from the start body, and the interview's own language over everything", async () => {
      const auto = await setup();
      const fromBody = await t.http.post(`/i/${auto.links[0]}/start`).set('Accept-Language', 'de').send({ ...PERSON, language: 'tr' });
      expect(fromBody.body.result.language).toBe('tr');
      expect(fromBody.body.result.conversation[1].content).toMatch(/^Merhaba Aiko, Acme Notes hakkında/);
      // The general questions, in the interview's language.
      expect(fromBody.body.result.conversation[1].content).toMatch(/Acme Notes ile ilk nasıl tanıştınız/);

      const fixed = await setup({ language: 'fr' });
      const questions = await t.http.get('/v1/interviews/getQuestions').query({ interviewID: fixed.interviewID }).set(bearer(admin));
      expect(questions.body.result[1]).toEqual({ questionIndex: 1, question: 'À quoi vous sert principalement Acme Notes ?' });
      expect((await session(fixed.links[0], 'es', 'ja')).body.result.language).toBe('fr');
      const started = await t.http.post(`/i/${fixed.links[0]}/start`).send({ ...PERSON, language: 'es' });
      expect(started.body.result.language).toBe('fr');
      expect(started.body.result.conversation[1].content).toMatch(/^Bonjour Aiko/);
    });

    it('passes over a hostile ?lang= or Accept-Language rather than fail the page', async () => {
      const { links } = await setup();
      const [linkID] = links;
      for (const query of ['lang[]=ja', 'lang=ja&lang=es', `lang=${'a'.repeat(5000)}`, 'lang=%00', 'lang[$ne]=en']) {
        const res = await t.http.get(`/i/${linkID}/session?${query}`);
        expect([query, res.status]).toEqual([query, 200]);
      }
      for (const header of ['*;q=abc', ';;;,,,', `${'x-'.repeat(3000)}ja`, 'ja;q=0', `${'sv,'.repeat(400)}ja`]) {
        const res = await t.http.get(`/i/${linkID}`).set('Accept-Language', header);
        expect([header, res.status, /<html lang="(\w+)"/.exec(res.text)?.[1]]).toEqual([header, 200, 'en']);
      }
      expectError(await t.http.post(`/i/${linkID}/start`).send({ ...PERSON, language: { $ne: 'en' } }), 400, /language/);
      expectError(await t.http.post(`/i/${linkID}/start`).send({ ...PERSON, language: ['ja'] }), 400, /language/);
    });

    it('refuses a start language that is not supported, and starts nothing', async () => {
      const { links } = await setup();
      expectError(await t.http.post(`/i/${links[0]}/start`).send({ ...PERSON, language: 'sv' }), 400, /language must be one of/);
      expect((await session(links[0])).body.result.status).toBe('pending');
    });
  });

  describe('what interviewees see of the interview', () => {
    it("shows the public title (never the internal name) and the interview's consent text", async () => {
      const { links } = await setup({ publicTitle: 'Tell us about your notes', consentText: 'Acme Research records this; kept 90 days.' });
      const s = (await session(links[0])).body.result;
      expect(s).toMatchObject({ publicTitle: 'Tell us about your notes', consentText: 'Acme Research records this; kept 90 days.' });
      expect(s).not.toHaveProperty('interviewName');
      const page = (await t.http.get(`/i/${links[0]}`)).text;
      expect(page).toContain('Tell us about your notes');
      expect(page).not.toContain('churn cohort');
      const started = await t.http.post(`/i/${links[0]}/start`).send(PERSON);
      expect(started.body.result.conversation[0].content).toMatch(/Z: Acme Research records this; kept 90 days\.$/);
    });

    it('sends a finished interviewee to the completion URL with status=completed or abandoned, never the linkID', async () => {
      const { links } = await setup({ completionRedirectUrl: 'https://panel.example/done?pid=7&status=stale' }, 2);
      const [done, dropped] = links;
      expect((await session(done)).body.result.redirectUrl).toBeNull();
      await t.http.post(`/i/${done}/start`).send(PERSON);
      expect((await session(done)).body.result.redirectUrl).toBeNull();
      await t.http.post(`/i/${done}/reply`).send({ content: 'A colleague showed it to me during a long planning meeting last spring.' });
      const ended = await t.http.post(`/i/${done}/end`).send({});
      expect(ended.body.result).toMatchObject({ status: 'completed', redirectUrl: 'https://panel.example/done?pid=7&status=completed' });
      const page = await t.http.get(`/i/${done}`);
      expect(page.text).toContain('href="https://panel.example/done?pid=7&amp;status=completed"');
      expect(page.text).toContain('rel="noreferrer"');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.text).not.toMatch(new RegExp(`panel\\.example[^"]*${done}`));

      await t.http.post(`/i/${dropped}/start`).send(PERSON);
      const abandoned = await t.http.post(`/i/${dropped}/end`).send({});
      expect(abandoned.body.result).toMatchObject({ status: 'abandoned', redirectUrl: 'https://panel.example/done?pid=7&status=abandoned' });
      expect(abandoned.body.result.redirectUrl).not.toContain(dropped);
    });

    it('counts progress for the built-in agent: 0 before the start, 1 after the opening, the total at the end', async () => {
      const { links } = await setup({ guidelines: 'What do you use it for?\nWhat would you change?\nWho else uses it?' });
      const [linkID] = links;
      expect((await session(linkID)).body.result.progress).toEqual({ asked: 0, total: 3 });
      await t.http.post(`/i/${linkID}/start`).send(PERSON);
      expect((await session(linkID)).body.result.progress).toEqual({ asked: 1, total: 3 });
      const long = 'I use it every day to keep my meeting notes in order for the whole team.';
      expect((await t.http.post(`/i/${linkID}/reply`).send({ content: long })).body.result.progress).toEqual({ asked: 2, total: 3 });
      expect((await t.http.post(`/i/${linkID}/reply`).send({ content: 'short' })).body.result.progress).toEqual({ asked: 2, total: 3 });
      expect((await t.http.post(`/i/${linkID}/reply`).send({ content: long })).body.result.progress).toEqual({ asked: 3, total: 3 });
      expect((await t.http.post(`/i/${linkID}/reply`).send({ content: long })).body.result.progress).toEqual({ asked: 3, total: 3 });
      expect((await t.http.get(`/i/${linkID}`)).text).toContain('Question 3 of 3');
    });

    it('shows the error pages in the browser language', async () => {
      const res = await t.http.get('/i/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').set('Accept-Language', 'es-ES,es;q=0.9');
      expect(res.status).toBe(404);
      expect(res.text).toMatch(/<html lang="es" dir="ltr">/);
      expect(res.text).toContain('Este enlace no lleva a ninguna entrevista');
    });
  });
});
