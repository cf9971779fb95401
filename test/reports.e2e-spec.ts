import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OfflineAnalysisRunner } from '../src/reports/analysis/offline-analysis-runner';
import { TestApp, adminToken, bearer, expectError, scopedToken, startApp, uniq, useTestApp } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { waitFor } from './helpers/wait';

const GUIDELINES = ['1. What do you use Acme Notes for?', '2. What would you change about Acme Notes?'].join('\n');

/** Six interviewees: two topics per question, each answer long enough not to be probed. */
const PEOPLE: { name: string; answers: [string, string] }[] = [
  { name: 'Ada', answers: ['I use it for meeting notes with my team every single week.', 'The pricing is too expensive for a small team like ours, honestly.'] },
  { name: 'Grace', answers: ['Meeting notes mostly, shared with the whole team after each call.', 'The price went up twice this year and it is too expensive now.'] },
  { name: 'Alan', answers: ['Team meeting notes and the agendas we write before each meeting.', 'Too expensive: the pricing per seat hurts a small team a lot.'] },
  { name: 'Edsger', answers: ['Research notes for my thesis, with citations and long drafts.', 'Search is slow on big notebooks and I wait seconds for results.'] },
  { name: 'Barbara', answers: ['My research notes and reading lists for the thesis chapters.', 'Search is slow, really slow, when the notebook gets big.'] },
  { name: 'Donald', answers: ['Long research drafts and notes on papers for my thesis work.', 'The slow search on large notebooks makes me wait every day.'] },
];

interface Quote {
  linkID: string;
  turnIndex: number;
  text: string;
}

describe('Reports', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app), { REPORT_POLL_SECONDS: '1', REPORT_WORKER_HEAP_MB: '1024' });

  let orgID: string;
  let productID: string;
  let interviewID: string;
  let links: string[];

  const post = (path: string, body: Record<string, unknown>, token = admin) => t.http.post(path).set(bearer(token)).send(body);
  const get = (path: string, query: Record<string, unknown>, token = admin) => t.http.get(path).query(query).set(bearer(token));
  const report = async (reportID: string) => (await get('/v1/reports/getOne', { reportID })).body.result;
  const completed = (reportID: string) => waitFor(`report ${reportID} completed`, async () => ((await report(reportID)).status === 'completed' ? report(reportID) : undefined), 20_000);

  beforeAll(async () => {
    orgID = uniq('org');
    productID = await makeProduct(t, admin, { orgID, name: 'Acme Notes' });
    interviewID = await makeInterview(t, admin, productID, { interviewName: 'What teams use it for', guidelines: GUIDELINES });
    const res = await get('/v1/invites/createInvites', { interviewID, count: PEOPLE.length + 2 });
    links = (res.body.result as string[]).map((url) => new URL(url).pathname.split('/').pop()!);
    for (const [i, person] of PEOPLE.entries()) {
      await t.http.post(`/i/${links[i]}/start`).send({ name: person.name, email: `${person.name.toLowerCase()}@example.com`, consent: true }).expect(200);
      for (const answer of person.answers) await t.http.post(`/i/${links[i]}/reply`).send({ content: answer }).expect(200);
      // "Anything else?" answered: completed.
      const last = await t.http.post(`/i/${links[i]}/reply`).send({ content: 'No, nothing else to add from my side today.' }).expect(200);
      expect(last.body.result.status).toBe('completed');
    }
    // One abandoned, one never started.
    await t.http.post(`/i/${links[PEOPLE.length]}/start`).send({ name: 'Quitter', email: 'q@example.com', consent: true }).expect(200);
    await t.http.post(`/i/${links[PEOPLE.length]}/end`).send({}).expect(200);
  });

  it('queues an offline report and makes it in the background: counts that match a hand count, verbatim quotes', async () => {
    const res = await post('/v1/reports/addOne', { interviewID });
    expect(res.status).toBe(201);
    const { reportID } = res.body.result;
    const done = await completed(reportID);
    expect(done).toMatchObject({ reportID, interviewID, productID, analyst: null, language: null, status: 'completed', error: null });
    expect(done.completed_on).toMatch(/Z$/);
    const result = done.result;
    // A report done between two renewals shows what it did, not 0 of 0: every answer it read, at least.
    expect(done.progress.done).toBe(done.progress.total);
    expect(done.progress.total).toBeGreaterThanOrEqual(result.sentiment.scored);
    // Hand count: 8 invites: 6 completed, 1 abandoned, 1 pending; 7 ever started.
    expect(result.invites).toEqual({ total: 8, pending: 1, started: 0, completed: 6, abandoned: 1, expired: 0, revoked: 0, screenedout: 0, overquota: 0, flagged: 0 });
    expect(result.completionRate).toBe(0.8571);
    expect(result.medianDurationSeconds).toEqual(expect.any(Number));
    expect(result.droppedQuotes).toBe(0);
    expect(result.questions.map((q: { questionIndex: number | null; answered: number }) => [q.questionIndex, q.answered])).toEqual([
      [0, 6],
      [1, 6],
      [null, 6],
    ]);
    expect(result.sentiment.scored).toBe(18);
    // Two topics per question, three interviewees each: the themes find them.
    const themesOf = (i: number) => (result.questions[i].themes as { theme: string; answers: number }[]).map((th) => th.answers).sort();
    expect(themesOf(0)).toEqual([3, 3]);
    expect(themesOf(1)).toEqual([3, 3]);
    const keyphrases = (result.questions[1].keyphrases as { phrase: string }[]).map((k) => k.phrase).join(' | ');
    expect(keyphrases).toMatch(/expensive|pric/);
    expect(keyphrases).toMatch(/search|slow/);

    // Every quote is a verbatim substring of at least three words of the interviewee turn it cites.
    const quotes: Quote[] = [
      ...result.questions.flatMap((q: { quotes: Quote[]; themes: { quotes: Quote[] }[] }) => [...q.quotes, ...q.themes.flatMap((th) => th.quotes)]),
      ...result.themes.flatMap((th: { quotes: Quote[] }) => th.quotes),
    ];
    expect(quotes.length).toBeGreaterThan(4);
    for (const quote of quotes) {
      const turn = (await get('/v1/invites/getOne', { linkID: quote.linkID })).body.result.conversation[quote.turnIndex];
      expect(turn.role).toBe('interviewee');
      expect(turn.content).toContain(quote.text);
      expect(quote.text.split(/\s+/).filter(Boolean).length).toBeGreaterThanOrEqual(3);
    }
  });

  it("gives the analysis worker the heap limit REPORT_WORKER_HEAP_MB sets", () => {
    expect(t.app.get(OfflineAnalysisRunner).heapMb).toBe(1024);
  });

  it('lists an interview\'s reports, oldest first', async () => {
    const first = (await post('/v1/reports/addOne', { interviewID })).body.result.reportID;
    const second = (await post('/v1/reports/addOne', { interviewID })).body.result.reportID;
    await completed(second);
    const list = (await get('/v1/reports/getList', { interviewID })).body.result as { reportID: string }[];
    const ids = list.map((r) => r.reportID);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect((await get('/v1/reports/getList', { interviewID, limit: 1 })).body.result).toHaveLength(1);
  });

  it('counts segments again when an interviewee is erased: the segment and its themes lose them', async () => {
    const segOrg = uniq('org');
    const segProduct = await makeProduct(t, admin, { orgID: segOrg, name: 'Acme Notes' });
    const segInterview = await makeInterview(t, admin, segProduct, { interviewName: 'Segments', guidelines: GUIDELINES });
    // Ada, Grace and Alan (price) are churned customers; Edsger, Barbara and Donald (search) active ones.
    const segmentOf = (i: number) => (i < 3 ? 'churned' : 'active');
    for (const [i, person] of PEOPLE.entries()) {
      const url = (await get('/v1/invites/createInvites', { interviewID: segInterview, count: 1, segment: segmentOf(i) })).body.result[0] as string;
      const link = new URL(url).pathname.split('/').pop()!;
      await t.http.post(`/i/${link}/start`).send({ name: person.name, email: `${person.name.toLowerCase()}.seg@example.com`, consent: true }).expect(200);
      for (const answer of person.answers) await t.http.post(`/i/${link}/reply`).send({ content: answer }).expect(200);
      await t.http.post(`/i/${link}/reply`).send({ content: 'No, nothing else to add from my side today.' }).expect(200);
    }
    const { reportID } = (await post('/v1/reports/addOne', { interviewID: segInterview })).body.result;
    const before = (await completed(reportID)).result;
    const churned = (result: { segments: { segment: string; invites: number; completed: number; themes: { answers: number }[] }[] }) => result.segments.find((s) => s.segment === 'churned')!;
    expect(before.segments.map((s: { segment: string; invites: number; completed: number }) => [s.segment, s.invites, s.completed])).toEqual([
      ['active', 3, 3],
      ['churned', 3, 3],
    ]);
    expect(Math.max(...churned(before).themes.map((th) => th.answers))).toBe(3);

    const erased = (await post('/v1/participants/erase', { email: 'ada.seg@example.com', orgID: segOrg }).expect(200)).body.result;
    expect(erased.reports).toBe(1);
    const after = (await report(reportID)).result;
    expect(after.segments.map((s: { segment: string; invites: number; completed: number }) => [s.segment, s.invites, s.completed])).toEqual([
      ['active', 3, 3],
      ['churned', 2, 2],
    ]);
    // Her codes are gone, so no theme counts her in the segment: the price theme now holds Grace and Alan.
    expect(Math.max(...churned(after).themes.map((th) => th.answers))).toBe(2);
    for (const theme of churned(after).themes) expect(theme.answers).toBeLessThanOrEqual(2);
  });

  it('shares a completed report as a page no token opens, until unshared', async () => {
    const { reportID } = (await post('/v1/reports/addOne', { interviewID })).body.result;
    await completed(reportID);
    const shared = await post('/v1/reports/share', { reportID, expiresInDays: 2 });
    expect(shared.status).toBe(200);
    const { url, expires_on } = shared.body.result;
    expect(url).toMatch(/^http:\/\/localhost:\d+\/r\/[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(expires_on) - Date.now()).toBeGreaterThan(2 * 86_400_000 - 60_000);
    const path = new URL(url).pathname;

    const page = await t.http.get(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.text).toContain('What teams use it for');
    expect(page.text).toContain('What would you change about Acme Notes?');
    expect(page.text).toContain('<svg');
    expect(page.text).not.toMatch(/https?:\/\//);
    for (const link of links) expect(page.text).not.toContain(link);

    const unshared = await post('/v1/reports/unshare', { reportID });
    expect(unshared.body.result).toEqual({ reportID, status: 'unshared', links: 1 });
    const gone = await t.http.get(path);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('This report link is not valid or has expired');
    expect(gone.text).not.toContain(path.split('/').pop());
  });

  it('answers a 404 page for unknown and malformed share links', async () => {
    for (const shareID of ['A'.repeat(32), 'x', 'not%20a%20link']) {
      const res = await t.http.get(`/r/${shareID}`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('This report link is not valid or has expired');
    }
  });

  it('refuses what cannot be: an unknown analyst, sharing an unfinished report, bad days, foreign reports', async () => {
    expectError(await post('/v1/reports/addOne', { interviewID, analyst: 'no-such-agent' }), 400, /analyst must be the name of an openai agent/);
    expectError(await post('/v1/reports/addOne', { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' }), 404, /interview/);
    expectError(await post('/v1/reports/addOne', { interviewID, extra: 1 }), 400, /extra/);
    const queued = (await post('/v1/reports/addOne', { interviewID })).body.result.reportID;
    const early = await post('/v1/reports/share', { reportID: queued });
    // The worker may already have made it; until then, 409.
    if (early.status !== 200) expectError(early, 409, /only a completed report can be shared/);
    for (const days of [0, 91, 1.5, '7']) expectError(await post('/v1/reports/share', { reportID: queued, expiresInDays: days }), 400, /expiresInDays/);
    const stranger = await scopedToken(t, { orgID: uniq('other') });
    expectError(await get('/v1/reports/getOne', { reportID: queued }, stranger), 404);
    expectError(await post('/v1/reports/share', { reportID: queued }, stranger), 404);
    expectError(await get('/v1/reports/getList', { interviewID }, stranger), 404);
    await completed(queued);
  });

  it('reports on an interview without answers: zeros and nulls, no made-up numbers', async () => {
    const empty = await makeInterview(t, admin, productID, { interviewName: 'Nobody yet', guidelines: GUIDELINES });
    const { reportID } = (await post('/v1/reports/addOne', { interviewID: empty })).body.result;
    const { result } = await completed(reportID);
    expect(result).toMatchObject({
      invites: { total: 0, pending: 0, started: 0, completed: 0, abandoned: 0, expired: 0, revoked: 0, screenedout: 0, overquota: 0, flagged: 0 },
      completionRate: null,
      medianDurationSeconds: null,
      medianAnswerWords: null,
      sentiment: { mean: null, negative: 0, neutral: 0, positive: 0, scored: 0 },
      themes: [],
      droppedQuotes: 0,
    });
    expect(result.questions).toEqual([
      expect.objectContaining({ questionIndex: 0, answered: 0, medianWords: null, themes: [], quotes: [], keyphrases: [] }),
      expect.objectContaining({ questionIndex: 1, answered: 0 }),
    ]);
  });
});

/**
 * A report whose themes a model codes: a stand-in chat-completions server speaking the real protocol
 * over HTTP. Among good answers it paraphrases a quote, states counts of its own, and answers one
 * question with malformed JSON; the report keeps only verbatim quotes, counts interviewees itself, and
 * makes that question's themes the offline analysis, saying so in its notes.
 */
describe('Reports with a model as the analyst', () => {
  let t: TestApp;
  let admin: string;
  let model: Server;
  const requests: { schema: string; user: string; body: string }[] = [];
  /** While set, the stand-in answers nothing until it settles (a model that takes its time). */
  let gate: Promise<void> | undefined;
  const PARAPHRASE = 'It simply costs far too much money';

  /** The answers a request lists, as the analyst writes them: one JSON object per line. */
  const answersOf = (user: string) =>
    user
      .split('\n')
      .filter((line) => line.startsWith('{"id":"a'))
      .map((line) => JSON.parse(line) as { id: string; text: string });

  function answer(body: { messages: { role: string; content: string }[]; response_format: { json_schema: { name: string } } }): string {
    const schema = body.response_format.json_schema.name;
    const user = body.messages.at(-1)!.content;
    if (schema === 'interview_themes') {
      const ids = user.split('\n').filter((line) => line.startsWith('{"id":"t')).map((line) => (JSON.parse(line) as { id: string }).id);
      return JSON.stringify({ themes: [{ theme: 'Cost and speed', description: 'What interviewees would change.', questionThemes: ids, quotes: [] }] });
    }
    // The first question's answers get a reply that is not JSON.
    if (user.includes('What do you use Acme Notes for?')) return '{"themes": [ {"theme": "Meetings", ';
    const about = user.includes('What would you change about Acme Notes?') ? 'change' : 'closing';
    if (schema === 'propose_themes') {
      return JSON.stringify({
        themes:
          about === 'change'
            ? [
                { theme: 'Too expensive', description: 'The price hurts small teams.' },
                { theme: 'Slow search', description: 'Search is slow on big notebooks.' },
              ]
            : [{ theme: 'Nothing more', description: 'Nothing to add.' }],
      });
    }
    const answers = answersOf(user);
    const firstWords = (text: string) => text.split(' ').slice(0, 4).join(' ');
    if (about === 'closing') {
      return JSON.stringify({ codes: answers.map((a) => ({ answer: a.id, themes: ['T1'] })), quotes: [{ theme: 'T1', answer: answers[0].id, text: firstWords(answers[0].text) }] });
    }
    const pricey = answers.filter((a) => /expensive|pric/i.test(a.text));
    const slow = answers.filter((a) => /slow|search/i.test(a.text));
    return JSON.stringify({
      // "answers": 99 is the model's own count: the server counts the codes itself.
      codes: answers.map((a) => ({ answer: a.id, themes: [...(pricey.includes(a) ? ['T1'] : []), ...(slow.includes(a) ? ['T2'] : [])], answers: 99 })),
      quotes: [
        { theme: 'T1', answer: pricey[1].id, text: PARAPHRASE },
        ...pricey.map((a) => ({ theme: 'T1', answer: a.id, text: firstWords(a.text) })),
        { theme: 'T2', answer: slow[0].id, text: firstWords(slow[0].text) },
      ],
    });
  }

  beforeAll(async () => {
    model = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw);
        requests.push({ schema: body.response_format.json_schema.name, user: body.messages.at(-1).content, body: raw });
        const content = answer(body);
        void (gate ?? Promise.resolve()).then(() =>
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] })),
        );
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    t = await startApp({ REPORT_POLL_SECONDS: '1', INTERVIEWER_AGENTS: JSON.stringify({ 'stand-in': { kind: 'openai', baseUrl, model: 'stand-in-model', timeoutMs: 5000 } }) });
    admin = await adminToken(t);
  });

  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => model.close(resolve));
  });

  /** An interview of its own that PEOPLE completed, under an organization of its own. */
  async function interviewed(name: string): Promise<{ orgID: string; interviewID: string; links: string[] }> {
    const orgID = uniq('org');
    const productID = await makeProduct(t, admin, { orgID, name: 'Acme Notes' });
    const interviewID = await makeInterview(t, admin, productID, { interviewName: name, guidelines: GUIDELINES });
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: PEOPLE.length }).set(bearer(admin));
    const links = (res.body.result as string[]).map((url) => new URL(url).pathname.split('/').pop()!);
    for (const [i, person] of PEOPLE.entries()) {
      await t.http.post(`/i/${links[i]}/start`).send({ name: person.name, email: `${person.name.toLowerCase()}@example.com`, consent: true }).expect(200);
      for (const content of [...person.answers, 'No, nothing else to add from my side today.']) await t.http.post(`/i/${links[i]}/reply`).send({ content }).expect(200);
    }
    return { orgID, interviewID, links };
  }

  it('keeps the model\'s themes where they hold, drops paraphrased quotes, counts the codes itself, falls back where the model fails', async () => {
    const { interviewID, links } = await interviewed('With a model');

    const { reportID } = (await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID, analyst: 'stand-in' }).expect(201)).body.result;
    const done = await waitFor('the report', async () => {
      const r = (await t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(admin))).body.result;
      return r.status === 'completed' ? r : undefined;
    }, 20_000);
    const { result } = done;
    expect(done.analyst).toBe('stand-in');

    // Question 2: the model's themes, counted by the server from the codes (3 interviewees each, not the model's 99).
    const change = result.questions[1];
    expect(change.themes.map((th: { theme: string; answers: number }) => [th.theme, th.answers])).toEqual([
      ['Too expensive', 3],
      ['Slow search', 3],
    ]);
    // The paraphrase is gone and counted; the verbatim quote stays.
    expect(result.droppedQuotes).toBe(1);
    const quotes = change.themes.flatMap((th: { quotes: Quote[] }) => th.quotes) as Quote[];
    expect(quotes.map((q) => q.text)).not.toContain(PARAPHRASE);
    expect(quotes).toHaveLength(4);
    for (const quote of quotes) {
      const turn = (await t.http.get('/v1/invites/getOne').query({ linkID: quote.linkID }).set(bearer(admin))).body.result.conversation[quote.turnIndex];
      expect(turn.content).toContain(quote.text);
    }
    // Question 1: the model's answer was not JSON, so its themes are the offline analysis, and a note says so.
    expect(result.notes.join('\n')).toMatch(/question 1 .*offline analysis.*not valid JSON/i);
    expect(result.questions[0].themes.length).toBeGreaterThan(0);
    // Across the interview: the model's theme, its members the union of the themes it named.
    expect(result.themes.map((th: { theme: string }) => th.theme)).toEqual(['Cost and speed']);

    // What the model was sent: answers only, never a linkID, a name or an email.
    expect(requests.some((r) => r.schema === 'code_answers')).toBe(true);
    for (const r of requests) {
      for (const link of links) expect(r.body).not.toContain(link);
      for (const person of PEOPLE) expect(r.body).not.toContain(`${person.name.toLowerCase()}@example.com`);
    }
  });

  it('takes out the quotes of an interviewee erased while the report was being made', async () => {
    const { orgID, interviewID, links } = await interviewed('Erased meanwhile');
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    try {
      const before = requests.length;
      const { reportID } = (await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID, analyst: 'stand-in' }).expect(201)).body.result;
      // The run has read the answers and waits for the model: Ada is erased now, before any result is stored.
      await waitFor('the run to ask the model', async () => (requests.length > before ? true : undefined), 10_000);
      const erased = (await t.http.post('/v1/participants/erase').set(bearer(admin)).send({ email: 'ada@example.com', orgID }).expect(200)).body.result;
      expect({ invites: erased.invites, reports: erased.reports }).toEqual({ invites: 1, reports: 0 });
      open();
      const done = await waitFor('the report', async () => {
        const r = (await t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(admin))).body.result;
        return r.status === 'completed' ? r : undefined;
      }, 20_000);
      const text = JSON.stringify(done.result);
      // Others' quotes stay (the model quoted every answer about price: Ada's, Grace's, Alan's); none of Ada's.
      expect(text).toContain(links[1]);
      expect(text).not.toContain(links[0]);
      expect(text).not.toContain('The pricing is too expensive');
      // The share page renders the stored result: nothing of Ada's there either.
      const share = (await t.http.post('/v1/reports/share').set(bearer(admin)).send({ reportID }).expect(200)).body.result;
      const page = await t.http.get(new URL(share.url).pathname).expect(200);
      expect(page.text).not.toContain('The pricing is too expensive');
    } finally {
      open?.();
      gate = undefined;
    }
  });
});
