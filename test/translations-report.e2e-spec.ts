import { TestApp, adminToken, bearer, expectError, startApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { StandInModel, type StandInGroup } from './helpers/stand-in-model';
import { waitFor } from './helpers/wait';

/** What a model would find in the answers, read in English (their translations for the others). */
const GROUPS: StandInGroup[] = [
  { labels: ['Late deliveries'], description: 'Boxes arrive after the promised time.', pattern: /\blate\b/i },
  { labels: ['High prices'], description: 'The price feels too high for what is in the box.', pattern: /\b(price|expensive)\b/i },
];

/** Each language's answers to the one question, and the stand-in's translations of the German and Japanese ones. */
const ANSWERS: Record<'en' | 'de' | 'ja', string[]> = {
  en: ['The delivery arrived late again and nobody called me about it.', 'The boxes are too expensive now, the price went up twice this year.'],
  de: ['Die Lieferung kam schon wieder zu spät und niemand hat angerufen.', 'Die Boxen sind inzwischen zu teuer, der Preis ist zweimal gestiegen.'],
  ja: ['配達がまた遅れて、誰からも連絡がありませんでした。', '箱は今では高すぎます。今年は価格が二回上がりました。'],
};
const DICTIONARY: Record<string, string> = {
  [ANSWERS.de[0]]: 'The delivery came late yet again and nobody called.',
  [ANSWERS.de[1]]: 'The boxes are too expensive by now, the price went up twice.',
  [ANSWERS.ja[0]]: 'The delivery was late again and nobody contacted me.',
  [ANSWERS.ja[1]]: 'The box is too expensive now. The price went up twice this year.',
};

interface Quote {
  linkID: string;
  turnIndex: number;
  text: string;
  translation: string | null;
}

/**
 * A model's report over a study in English, German and Japanese: the answers in other languages are
 * translated for coding, the themes are in the report's language, every quote keeps its verbatim
 * original with the translation beside it, and the counts are the server's. A model that refuses to
 * translate still makes a report, and says so.
 */
describe('A model report over answers in several languages', () => {
  let t: TestApp;
  let admin: string;
  const translator = new StandInModel(GROUPS, { dictionary: DICTIONARY });
  const refuser = new StandInModel(GROUPS, { refuse: true });
  let interviewID: string;
  const languageOf = new Map<string, string>();

  beforeAll(async () => {
    const agents = { ...JSON.parse(translator.agents(await translator.start(), 'translator')), ...JSON.parse(refuser.agents(await refuser.start(), 'refuser')) };
    t = await startApp({ REPORT_POLL_SECONDS: '1', INTERVIEWER_AGENTS: JSON.stringify(agents) });
    admin = await adminToken(t);
    const productID = await makeProduct(t, admin, { orgID: uniq('org'), name: 'FreshBox' });
    interviewID = await makeInterview(t, admin, productID, {
      guidelines: '1. What would you change about FreshBox?',
      translations: { de: '1. Was würden Sie an FreshBox ändern?', ja: '1. FreshBox の何を変えたいですか？' },
    });
    // Two interviewees per answer and language: a theme holds answers of at least two.
    const people = Object.entries(ANSWERS).flatMap(([language, answers]) => [...answers, ...answers].map((answer) => ({ language, answer })));
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: people.length }).set(bearer(admin));
    const links: string[] = res.body.result.map((url: string) => new URL(url).pathname.split('/').pop());
    for (const [i, person] of people.entries()) {
      languageOf.set(links[i], person.language);
      await t.http.post(`/i/${links[i]}/start`).send({ name: 'Alex', email: `alex${i}@example.com`, consent: true, language: person.language }).expect(200);
      await t.http.post(`/i/${links[i]}/reply`).send({ content: person.answer }).expect(200);
      await t.http.post(`/i/${links[i]}/end`).send({}).expect(200);
    }
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await translator.stop();
    await refuser.stop();
  });

  const report = async (body: Record<string, unknown>) => {
    // Interviewees here say the same things word for word, which a panel study flags (duplicate_answer);
    // these reports are about languages, so flagged invites are read too.
    const added = await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID, includeFlagged: true, ...body });
    expect(added.status).toBe(201);
    const { reportID } = added.body.result;
    return waitFor(
      `report ${reportID}`,
      async () => {
        const r = (await t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(admin))).body.result;
        if (r.status === 'failed') throw new Error(`report failed: ${r.error}`);
        return r.status === 'completed' ? r : undefined;
      },
      60_000,
    );
  };

  it('refuses a language that is not supported', async () => {
    expectError(await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID, analyst: 'translator', language: 'xx' }), 400, /language must be one of/);
  });

  it('translates for coding, writes every theme in English, keeps verbatim originals with translations, and counts on the server', async () => {
    const r = await report({ analyst: 'translator', language: 'en' });
    expect(r.language).toBe('en');
    const translationRequests = translator.requests.filter((request) => request.kind === 'translate_answers');
    expect(translationRequests.length).toBeGreaterThan(0);
    // Only the German and Japanese answers are sent for translation.
    for (const request of translationRequests) for (const answer of ANSWERS.en) expect(request.user).not.toContain(answer);

    const question = r.result.questions.find((q: { questionIndex: number | null }) => q.questionIndex === 0);
    expect(question.themes.map((theme: { theme: string }) => theme.theme).sort()).toEqual(['High prices', 'Late deliveries']);
    for (const theme of [...question.themes, ...r.result.themes]) expect(theme.language).toBe('en');
    // Two interviewees per language said each: six per theme, counted by the server from the codes.
    expect(question.themes.map((theme: { answers: number; mentions: number }) => [theme.answers, theme.mentions])).toEqual([
      [6, 6],
      [6, 6],
    ]);

    const rows = (await t.http.get('/v1/interviews/getAnswers').query({ interviewID }).set(bearer(admin))).body.result as { linkID: string; turnIndex: number; answer: string }[];
    const answerOf = (quote: Quote) => rows.find((row) => row.linkID === quote.linkID && row.turnIndex === quote.turnIndex)!.answer;
    const quotes: Quote[] = question.themes.flatMap((theme: { quotes: Quote[] }) => theme.quotes);
    expect(new Set(quotes.map((quote) => languageOf.get(quote.linkID)))).toEqual(new Set(['en', 'de', 'ja']));
    for (const quote of quotes) {
      expect(answerOf(quote)).toContain(quote.text);
      if (languageOf.get(quote.linkID) === 'en') expect(quote.translation).toBeNull();
      else expect(DICTIONARY[answerOf(quote)]).toContain(quote.translation);
    }

    // The shared page shows the original and, beside it, the translation.
    const share = await t.http.post('/v1/reports/share').set(bearer(admin)).send({ reportID: r.reportID });
    const page = await t.http.get(new URL(share.body.result.url, 'http://x').pathname);
    expect(page.status).toBe(200);
    const german = quotes.find((quote) => languageOf.get(quote.linkID) === 'de')!;
    expect(page.text).toContain(`<p>${german.text}</p><p class="translation"><span class="translation__label">Translation:</span> ${german.translation}</p>`);
  });

  it('a model that refuses to translate still makes the report: the answers are coded as written, and a note says so', async () => {
    const r = await report({ analyst: 'refuser', language: 'en' });
    expect(r.result.notes).toContain('8 of the 8 answers in other languages than en could not be translated (the model declined to answer): the model coded them as written.');
    const quotes: Quote[] = r.result.questions.flatMap((q: { themes: { quotes: Quote[] }[] }) => q.themes.flatMap((theme) => theme.quotes));
    for (const quote of quotes) expect(quote.translation).toBeNull();
  });
});
