import { TestApp, bearer, expectError, tableCounts, uniq, useTestApp } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { waitFor } from './helpers/wait';

const GUIDELINES = 'Goal: onboarding in three markets (a note)\n1. How did you first hear about Acme Notes?\n2. What almost made you give up?';
const GERMAN = 'Ziel: Onboarding (eine Notiz)\n1. Wie haben Sie zum ersten Mal von Acme Notes gehört?\n2. Was hätte Sie fast aufgeben lassen?';
const JAPANESE = '1. Acme Notes を最初に知ったきっかけは何ですか？\n2. やめそうになったことは何ですか？';

describe('Interview translations (studies in many languages)', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  const read = async (interviewID: string) => (await t.http.get('/v1/interviews/getOne').query({ interviewID }).set(bearer(admin))).body.result;
  const questions = (interviewID: string, language?: string) =>
    t.http
      .get('/v1/interviews/getQuestions')
      .query(language === undefined ? { interviewID } : { interviewID, language })
      .set(bearer(admin));
  const update = (body: Record<string, unknown>) => t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send(body);

  async function translated(): Promise<string> {
    const productID = await makeProduct(t, admin, { orgID: uniq('org'), name: 'Acme Notes' });
    return makeInterview(t, admin, productID, { guidelines: GUIDELINES, translations: { de: GERMAN, ja: JAPANESE } });
  }

  it('stores translations, returns them in interview reads, and lists the questions in each language', async () => {
    const interviewID = await translated();
    expect(await read(interviewID)).toMatchObject({ guidelines: GUIDELINES, translations: { de: GERMAN, ja: JAPANESE }, language: 'auto' });

    const base = ['How did you first hear about Acme Notes?', 'What almost made you give up?'];
    expect((await questions(interviewID)).body.result).toEqual(base.map((question, questionIndex) => ({ questionIndex, question })));
    expect((await questions(interviewID, 'de')).body.result).toEqual([
      { questionIndex: 0, question: 'Wie haben Sie zum ersten Mal von Acme Notes gehört?' },
      { questionIndex: 1, question: 'Was hätte Sie fast aufgeben lassen?' },
    ]);
    expect((await questions(interviewID, 'ja')).body.result).toEqual([
      { questionIndex: 0, question: 'Acme Notes を最初に知ったきっかけは何ですか？' },
      { questionIndex: 1, question: 'やめそうになったことは何ですか？' },
    ]);
    // A supported language without a translation: the base questions, as an invite in it is asked them.
    expect((await questions(interviewID, 'fr')).body.result).toEqual(base.map((question, questionIndex) => ({ questionIndex, question })));
    expectError(await questions(interviewID, 'xx'), 400, /language must be one of/);
    expectError(await questions(interviewID, 'auto'), 400, /language must be one of/);
  });

  it('refuses a translation with one question too few (400 naming the language and both counts) and writes nothing', async () => {
    const productID = await makeProduct(t, admin, { orgID: uniq('org') });
    const before = await tableCounts(t.db);
    const res = await t.http
      .post('/v1/interviews/addOne')
      .set(bearer(admin))
      .send({ productID, interviewName: 'Three markets', guidelines: GUIDELINES, translations: { de: GERMAN, ja: '1. Acme Notes を最初に知ったきっかけは何ですか？' } });
    expectError(res, 400, /translations\.ja has 1 question but guidelines have 2/);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it.each([
    ['an unsupported language', { xx: GERMAN }, /"xx" is not a supported language/],
    ['auto as a language', { auto: GERMAN }, /"auto" is not a supported language/],
    ['a translation that is not text', { de: 5 }, /translations\.de must be a string/],
    ['a translation over 50,000 characters', { de: 'x'.repeat(50_001) }, /translations\.de must be at most 50000 characters/],
    ['an array', [GERMAN], /translations must be an object/],
    ['the base language again (English, the interview being auto)', { en: GUIDELINES }, /translations\.en: en is the interview's base language/],
  ])('refuses %s with 400 and writes nothing', async (_case, translations, message) => {
    const productID = await makeProduct(t, admin, { orgID: uniq('org') });
    const before = await tableCounts(t.db);
    expectError(await t.http.post('/v1/interviews/addOne').set(bearer(admin)).send({ productID, interviewName: 'x', guidelines: GUIDELINES, translations }), 400, message);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('refuses a translation into the language an interview is held in', async () => {
    const productID = await makeProduct(t, admin, { orgID: uniq('org') });
    const res = await t.http.post('/v1/interviews/addOne').set(bearer(admin)).send({ productID, interviewName: 'x', guidelines: GERMAN, language: 'de', translations: { de: GERMAN } });
    expectError(res, 400, /translations\.de: de is the interview's base language/);
    // English is a translation like any other once the guidelines are German.
    const ok = await t.http.post('/v1/interviews/addOne').set(bearer(admin)).send({ productID, interviewName: 'x', guidelines: GERMAN, language: 'de', translations: { en: GUIDELINES } });
    expect(ok.status).toBe(201);
  });

  it('updateOne replaces the whole field, null clears it, and guidelines that no longer fit a stored translation are refused', async () => {
    const interviewID = await translated();
    expect((await update({ interviewID, translations: { ja: JAPANESE } })).status).toBe(200);
    expect((await read(interviewID)).translations).toEqual({ ja: JAPANESE });

    const refused = await update({ interviewID, guidelines: `${GUIDELINES}\n3. What would you change?` });
    expectError(refused, 400, /translations\.ja has 2 questions but guidelines have 3/);
    expect((await read(interviewID)).guidelines).toBe(GUIDELINES);
    // Both changed together, in step: accepted.
    const both = await update({ interviewID, guidelines: `${GUIDELINES}\n3. What would you change?`, translations: { ja: `${JAPANESE}\n3. 何を変えたいですか？` } });
    expect(both.status).toBe(200);
    // Fixing the interview in a language that has a translation would hold it twice.
    expectError(await update({ interviewID, language: 'ja' }), 400, /translations\.ja: ja is the interview's base language/);

    expect((await update({ interviewID, translations: null })).status).toBe(200);
    expect((await read(interviewID)).translations).toBeNull();
    expect((await update({ interviewID, translations: {} })).status).toBe(200);
    expect((await read(interviewID)).translations).toBeNull();
  });

  describe('in the room and in the answers', () => {
    async function links(interviewID: string, count: number): Promise<string[]> {
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count }).set(bearer(admin));
      return res.body.result.map((url: string) => new URL(url).pathname.split('/').pop());
    }
    const start = (linkID: string, language: string) => t.http.post(`/i/${linkID}/start`).send({ name: 'Lukas Meyer', email: 'lukas@example.com', consent: true, language });
    const reply = async (linkID: string, content: string) => {
      const res = await t.http.post(`/i/${linkID}/reply`).send({ content });
      expect(res.status).toBe(200);
      return res.body.result.turns as { role: string; content: string }[];
    };
    const lastSaid = (turns: { role: string; content: string }[]) => turns.filter((turn) => turn.role === 'interviewer').pop()!.content;

    it("asks the questions in the invite's language, and answer rows and exports carry them as asked", async () => {
      const interviewID = await translated();
      const [german, english] = await links(interviewID, 2);

      const started = await start(german, 'de');
      expect(started.status).toBe(200);
      expect(lastSaid(started.body.result.conversation)).toMatch(/^Hallo Lukas.*Wie haben Sie zum ersten Mal von Acme Notes gehört\?$/);
      expect(lastSaid(await reply(german, 'Eine Kollegin hat mir Acme Notes in einem Teammeeting im Frühjahr gezeigt.'))).toBe('Was hätte Sie fast aufgeben lassen?');
      await reply(german, 'Der Import.'); // short: probed once
      await reply(german, 'Der Import unserer alten Notizen hat zwei ganze Abende gedauert.');
      await reply(german, 'Nein, danke.');

      expect((await start(english, 'en')).status).toBe(200);
      await reply(english, 'A colleague showed it to me during a planning meeting last spring.');

      const rows = (await t.http.get('/v1/interviews/getAnswers').query({ interviewID }).set(bearer(admin))).body.result as Record<string, unknown>[];
      const de = rows.filter((row) => row.linkID === german).map((row) => [row.questionIndex, row.question, row.asked, row.followUp, row.language]);
      expect(de).toEqual([
        [0, 'How did you first hear about Acme Notes?', 'Wie haben Sie zum ersten Mal von Acme Notes gehört?', false, 'de'],
        [1, 'What almost made you give up?', 'Was hätte Sie fast aufgeben lassen?', false, 'de'],
        [1, 'What almost made you give up?', 'Was hätte Sie fast aufgeben lassen?', true, 'de'],
        [null, null, null, false, 'de'],
      ]);
      expect(rows.filter((row) => row.linkID === english).map((row) => [row.question, row.asked])).toEqual([['How did you first hear about Acme Notes?', 'How did you first hear about Acme Notes?']]);

      const jsonl = await t.http.get('/v1/interviews/exportAnswers').query({ interviewID, format: 'jsonl' }).set(bearer(admin)).buffer(true).parse((r, done) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (body += c));
        r.on('end', () => done(null, body));
      });
      const exported = (jsonl.body as string).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(exported.filter((row) => row.linkID === german).map((row) => row.asked)).toEqual([
        'Wie haben Sie zum ersten Mal von Acme Notes gehört?',
        'Was hätte Sie fast aufgeben lassen?',
        'Was hätte Sie fast aufgeben lassen?',
        null,
      ]);
      const csv = await t.http.get('/v1/interviews/exportAnswers').query({ interviewID, format: 'csv' }).set(bearer(admin)).buffer(true).parse((r, done) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (body += c));
        r.on('end', () => done(null, body));
      });
      const lines = (csv.body as string).replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0].split(',').slice(9, 11)).toEqual(['language', 'asked']);
      expect(lines.find((line) => line.startsWith(`${german},0,`))).toContain(',de,Wie haben Sie zum ersten Mal von Acme Notes gehört?,completed,');
    });
  });

  describe('the offline report of a study in several languages', () => {
    /** Two complaints, each in three invites per language, every answer naming the product. */
    const ANSWERS: Record<string, string[]> = {
      en: [
        'The FreshBox delivery arrived late again and the driver never called me.',
        'Every FreshBox delivery this month arrived late, the driver came after nine.',
        'FreshBox delivery is always late, my box arrived long after the window.',
        'FreshBox is too expensive, the price went up twice this year for the same box.',
        'The price of FreshBox is too high now, it costs more than the supermarket.',
        'FreshBox got expensive, that price is too high for a family of four.',
      ],
      de: [
        'Die Lieferung von FreshBox kam wieder zu spät und der Fahrer hat nicht angerufen.',
        'Jede Lieferung von FreshBox kam diesen Monat zu spät, erst nach neun Uhr.',
        'Die FreshBox Lieferung ist immer zu spät, die Box kam lange nach dem Zeitfenster.',
        'FreshBox ist zu teuer, der Preis ist dieses Jahr zweimal gestiegen.',
        'Der Preis von FreshBox ist jetzt zu hoch, teurer als der Supermarkt.',
        'FreshBox ist teuer geworden, der Preis ist zu hoch für eine Familie.',
      ],
      ja: [
        'FreshBox の配達がまた遅れて、配達員から連絡もありませんでした。',
        '今月の FreshBox の配達は毎回遅れて、夜九時を過ぎて届きました。',
        'FreshBox の配達はいつも遅れて、指定の時間よりずっと後に届きます。',
        'FreshBox は価格が高すぎて、今年は二回も値上がりしました。',
        'FreshBox の価格は今は高すぎて、スーパーより高いです。',
        'FreshBox は高くなりました。家族には価格が高すぎます。',
      ],
    };

    it('groups answers within each language, every theme carrying one, never by the product name or the language alone', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org'), name: 'FreshBox' });
      const interviewID = await makeInterview(t, admin, productID, {
        guidelines: '1. What would you change about FreshBox?',
        translations: { de: '1. Was würden Sie an FreshBox ändern?', ja: '1. FreshBox の何を変えたいですか？' },
      });
      const count = Object.values(ANSWERS).reduce((n, list) => n + list.length, 0);
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count }).set(bearer(admin));
      const links: string[] = res.body.result.map((url: string) => new URL(url).pathname.split('/').pop());
      const languageOf = new Map<string, string>();
      let next = 0;
      for (const [language, answers] of Object.entries(ANSWERS)) {
        for (const answer of answers) {
          const linkID = links[next++];
          languageOf.set(linkID, language);
          expect((await t.http.post(`/i/${linkID}/start`).send({ name: 'Alex', email: 'alex@example.com', consent: true, language })).status).toBe(200);
          expect((await t.http.post(`/i/${linkID}/reply`).send({ content: answer })).status).toBe(200);
          expect((await t.http.post(`/i/${linkID}/end`).send({})).status).toBe(200);
        }
      }

      // Interviewees here say the same things word for word, which a panel study flags (duplicate_answer);
      // this study is about languages, so flagged invites are read too.
      const added = await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID, includeFlagged: true });
      expect(added.status).toBe(201);
      const { reportID } = added.body.result;
      const report = await waitFor(
        'the offline report',
        async () => {
          const got = (await t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(admin))).body.result;
          return got.status === 'completed' ? got : undefined;
        },
        60_000,
      );
      const question = report.result.questions.find((q: { questionIndex: number | null }) => q.questionIndex === 0);
      const themes: { themeID: string; theme: string; language: string | null }[] = [...question.themes, ...report.result.themes];
      expect(themes.length).toBeGreaterThan(0);
      for (const theme of themes) expect([theme.themeID, theme.language]).toEqual([theme.themeID, expect.stringMatching(/^(en|de|ja)$/)]);
      // Each language's answers make their own themes: the study is not one English theme plus a "German" and a "Japanese" one.
      expect(new Set(question.themes.map((theme: { language: string }) => theme.language))).toEqual(new Set(['en', 'de', 'ja']));
      expect(question.themes.map((theme: { theme: string }) => theme.theme)).not.toContain('FreshBox');

      const codes = (await t.http.get('/v1/reports/getCodes').query({ reportID, questionIndex: 0 }).set(bearer(admin))).body.result as { linkID: string; themeIDs: string[] }[];
      expect(codes).toHaveLength(count);
      for (const theme of question.themes as { themeID: string; language: string }[]) {
        const members = codes.filter((code) => code.themeIDs.includes(theme.themeID)).map((code) => languageOf.get(code.linkID));
        expect(members.length).toBeGreaterThanOrEqual(2);
        expect([theme.themeID, new Set(members)]).toEqual([theme.themeID, new Set([theme.language])]);
      }
    }, 120_000);
  });
});
