import Papa from 'papaparse';
import { RetentionSweeper } from '../src/participants/retention-sweeper';
import type { Theme } from '../src/reports/analysis/analysis.types';
import { TestApp, adminToken, bearer, expectError, scopedToken, startApp, tableCounts, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { StandInModel, type StandInGroup } from './helpers/stand-in-model';
import { fourWordRuns, whereRunsRemain } from './helpers/table-text';
import { waitFor } from './helpers/wait';

const Q1 = 'What would you change about FreshBox?';
const Q2 = 'How do you find the recipes?';
const GUIDELINES = `Meal-kit study, spring wave (a note: not asked).\n1. ${Q1}\n2. ${Q2}`;
const DAY = 86_400_000;

/**
 * A meal-kit study whose answers fall into known groups: to question 1 four people each about the
 * price, late deliveries and packaging waste, and two about something else entirely; to question 2
 * five about recipes repeating, four about recipes taking too long, and five about other things.
 * Every answer has 8 words or more (none is probed), and everyone closes with words of their own.
 */
interface Person {
  name: string;
  answers: [string, string, string];
}
const PEOPLE: Person[] = [
  { name: 'Ava Stone', answers: ['My box arrived late twice this month and the fish was warm.', 'The menu rotation feels stale to me, with similar bowls every month.', 'That covers everything on my mind about it.'] },
  { name: 'Ben Okafor', answers: ['The price is way too high for two people, so I paused the subscription.', 'The same recipes come back every few weeks and I want more variety.', 'No, nothing else from me right now, thanks.'] },
  { name: 'Cleo Park', answers: ['Honestly it costs too much money now, the price went up again this spring.', 'Recipes take too long on a weeknight, far too many steps for me.', 'Nothing more to add, I think that was all.'] },
  { name: 'Dev Rao', answers: ['Too expensive compared with the supermarket, the price per portion hurts our budget.', 'I see the same dishes repeating all the time, please add more variety.', 'All good, that is all I wanted to say.'] },
  { name: 'Eve Lind', answers: ['The price is the problem: too expensive for a student like me.', 'Cooking takes too long, every recipe has a long list of steps.', 'Nope, nothing else comes to mind today.'] },
  { name: 'Finn Berg', answers: ['Deliveries are constantly late, the courier came after nine in the evening.', 'Variety is lacking, the menu repeats the same chicken dishes constantly.', 'I have nothing further, thank you for asking.'] },
  { name: 'Gia Costa', answers: ['The box was late again on Tuesday and the meat was not cold.', 'Great flavours overall and the portions are generous for my family.', 'Thanks, I am done, that is everything.'] },
  { name: 'Hugo Lam', answers: ['My delivery is late most weeks, I waited the whole afternoon for it.', 'The recipes are too complicated with too many steps for busy evenings.', 'Nothing else, good luck with the study.'] },
  { name: 'Ines Silva', answers: ['So much plastic packaging, every ingredient wrapped separately, it is wasteful.', 'I love them, my kids even help me cook on Sundays now.', 'That is it from my side, bye.'] },
  { name: 'Jon Weiss', answers: ['The packaging waste bothers me, too much plastic and cardboard each week.', 'The menu repeats too often, I would like more variety in the dishes.', 'No more comments from me, cheers.'] },
  { name: 'Kim Moreau', answers: ['Less plastic packaging please, the waste from one box fills my recycling bin.', 'Tasty and easy enough, I have no complaints about the recipes at all.', 'Nothing else I can think of now.'] },
  { name: 'Lea Novak', answers: ['Too much packaging waste, the little plastic bags for spices are pointless.', 'They take too long, I need quicker meals with fewer steps on weekdays.', 'I guess that is all, thanks again.'] },
  { name: 'Max Ito', answers: ['My neighbour plays the trumpet every single evening and it is quite loud.', 'The fish recipes are delicious and my partner asks for them every week.', 'Nothing to add at this point, really.'] },
  { name: 'Nia Adams', answers: ['I mostly cook on weekends when the kids visit their grandparents in town.', 'I enjoy reading the recipe cards even when I do not cook them.', 'Done here, have a nice day.'] },
];
const ODD = [PEOPLE[12].answers[0], PEOPLE[13].answers[0]];

/** The person the erasure test erases, in a study of her own: her words are in no other study of this file. */
const ANA: Person = {
  name: 'Ana Torres',
  answers: ['I am Ana Torres from Lisbon and my parcel arrived late twice with warm salmon inside.', 'Quinoa bowls keep returning week after week, I crave a broader menu rotation.', 'Nothing else from Ana, she said, smiling politely at the screen.'],
};

/** What the stand-in model makes of them: its labels and descriptions carry digits. */
const GROUPS: StandInGroup[] = [
  { labels: ['Price 2 high', 'Price high', 'Too expensive', 'Price too high'], description: 'Four customers find the price too high, 4 of them pausing.', pattern: /price|expensive|costs too much/i },
  { labels: ['Late 2 deliveries', 'Late deliveries', 'Delivery and packaging'], description: 'Boxes come 1 day late or more.', pattern: /late/i },
  { labels: ['Packaging waste', 'Delivery and packaging'], description: 'Too much plastic around 100% of the ingredients.', pattern: /packaging|plastic/i },
  { labels: ['Same recipes again'], description: 'The menu repeats.', pattern: /repeat|same recipes|same dishes|variety|menu rotation/i },
  { labels: ['Too many steps'], description: 'Recipes take too long.', pattern: /too long|too many steps|too complicated|fewer steps/i },
  { labels: ['Gift cards'], description: 'Nobody said this.', pattern: /gift card/i },
];
/** The same, with a model that copies Ana's words (her name among them) into a description. */
const COPYING: StandInGroup[] = GROUPS.map((g) => (g.labels[1] === 'Late deliveries' ? { ...g, description: 'Ana Torres from Lisbon and my parcel arrived late twice, as 3 others say.' } : g));

interface CodeRow {
  linkID: string;
  questionIndex: number | null;
  turnIndex: number;
  themeIDs: string[];
  answer: string;
}
interface QuestionOut {
  questionIndex: number | null;
  answered: number;
  themes: Theme[];
  coverage: number | null;
  other: { answers: number; mentions: number };
}

describe('Every answer coded: getCodes, the coded export, codebooks, and erasure', () => {
  let t: TestApp;
  let admin: string;
  const model = new StandInModel(GROUPS);

  beforeAll(async () => {
    const baseUrl = await model.start();
    t = await startApp({ REPORT_POLL_SECONDS: '1', INTERVIEWER_AGENTS: model.agents(baseUrl) });
    admin = await adminToken(t);
  });

  afterAll(async () => {
    await t?.close();
    await model.stop();
  });

  const post = (path: string, body: Record<string, unknown>, token = admin) => t.http.post(path).set(bearer(token)).send(body);
  const get = (path: string, query: Record<string, unknown>, token = admin) => t.http.get(path).query(query).set(bearer(token));
  const completed = (reportID: string) =>
    waitFor(`report ${reportID}`, async () => {
      const r = (await get('/v1/reports/getOne', { reportID })).body.result;
      if (r.status === 'failed') throw new Error(`report failed: ${r.error}`);
      return r.status === 'completed' ? r : undefined;
    }, 30_000);
  const report = async (interviewID: string, body: Record<string, unknown> = { analyst: 'stand-in' }) => {
    const { reportID } = (await post('/v1/reports/addOne', { interviewID, ...body }).expect(201)).body.result;
    return completed(reportID);
  };
  const codesOf = async (query: Record<string, unknown>): Promise<CodeRow[]> => (await get('/v1/reports/getCodes', query).expect(200)).body.result;

  /** A study of its own (PEOPLE, under an organization of its own): its interview and each person's link. */
  async function study(people: Person[] = PEOPLE): Promise<{ orgID: string; productID: string; interviewID: string; links: string[] }> {
    const orgID = uniq('org');
    const productID = await makeProduct(t, admin, { orgID, name: 'FreshBox' });
    const interviewID = await makeInterview(t, admin, productID, { interviewName: 'Why people pause FreshBox', guidelines: GUIDELINES });
    const res = await get('/v1/invites/createInvites', { interviewID, count: people.length });
    const links = (res.body.result as string[]).map((url) => new URL(url).pathname.split('/').pop()!);
    for (const [i, person] of people.entries()) {
      const email = `${person.name.split(' ')[0].toLowerCase()}.${orgID}@example.com`;
      await t.http.post(`/i/${links[i]}/start`).send({ name: person.name, email, consent: true }).expect(200);
      let last;
      for (const content of person.answers) last = await t.http.post(`/i/${links[i]}/reply`).send({ content }).expect(200);
      expect(last!.body.result.status).toBe('completed');
    }
    return { orgID, productID, interviewID, links };
  }

  /** Every count of a report's questions, checked against its codes: what "counted by the server from the codes" means. */
  function expectCountsFromCodes(questions: QuestionOut[], codes: CodeRow[]): void {
    for (const q of questions) {
      const rows = codes.filter((c) => c.questionIndex === q.questionIndex);
      const links = (list: CodeRow[]) => new Set(list.map((c) => c.linkID)).size;
      for (const theme of q.themes) {
        const coded = rows.filter((c) => c.themeIDs.includes(theme.themeID));
        expect({ theme: theme.themeID, answers: theme.answers, mentions: theme.mentions }).toEqual({ theme: theme.themeID, answers: links(coded), mentions: coded.length });
      }
      const other = rows.filter((c) => c.themeIDs.length === 0);
      expect({ question: q.questionIndex, other: q.other }).toEqual({ question: q.questionIndex, other: { answers: links(other), mentions: other.length } });
      const coverage = rows.length === 0 ? null : Math.round(((rows.length - other.length) / rows.length) * 10_000) / 10_000;
      expect({ question: q.questionIndex, coverage: q.coverage }).toEqual({ question: q.questionIndex, coverage });
      expect(q.answered).toBe(links(rows));
      // A code names only themes of its own question.
      const ids = new Set(q.themes.map((th) => th.themeID));
      for (const row of rows) for (const id of row.themeIDs) expect({ row: row.answer, id, known: ids.has(id) }).toEqual({ row: row.answer, id, known: true });
    }
  }

  describe('a model codes every answer', () => {
    let interviewID: string;
    let links: string[];
    let done: { reportID: string; result: { questions: QuestionOut[]; themes: Theme[]; invites: { total: number } } };

    beforeAll(async () => {
      ({ interviewID, links } = await study());
      done = await report(interviewID);
    });

    it('lists one code row per answer, in the order of getAnswers, with the answer as read', async () => {
      const answers = (await get('/v1/interviews/getAnswers', { interviewID }).expect(200)).body.result as { linkID: string; turnIndex: number; questionIndex: number | null; answer: string }[];
      const codes = await codesOf({ reportID: done.reportID });
      expect(answers).toHaveLength(PEOPLE.length * 3);
      expect(codes.map(({ linkID, turnIndex, questionIndex, answer }) => ({ linkID, turnIndex, questionIndex, answer }))).toEqual(
        answers.map(({ linkID, turnIndex, questionIndex, answer }) => ({ linkID, turnIndex, questionIndex, answer })),
      );
    });

    it('counts every theme, coverage and other from the codes; the odd answers fall in other; the model\'s digits are gone', async () => {
      const codes = await codesOf({ reportID: done.reportID });
      const [first, second] = done.result.questions;
      expectCountsFromCodes(done.result.questions, codes);
      expect(first.themes.map((th) => [th.theme, th.description, th.answers])).toEqual([
        ['Price high', 'Four customers find the price too high, of them pausing.', 4],
        ['Late deliveries', 'Boxes come day late or more.', 4],
        ['Packaging waste', 'Too much plastic around of the ingredients.', 4],
      ]);
      expect(first).toMatchObject({ coverage: 0.8571, other: { answers: 2, mentions: 2 } });
      for (const odd of ODD) expect(codes.find((c) => c.answer === odd)!.themeIDs).toEqual([]);
      expect(second.themes.map((th) => [th.theme, th.answers])).toEqual([
        ['Same recipes again', 5],
        ['Too many steps', 4],
      ]);
      // The model's text (the closing answers' themes fell back to the offline analysis, whose descriptions are excerpts of answers).
      for (const theme of [...first.themes, ...second.themes, ...done.result.themes]) {
        expect(theme.theme).not.toMatch(/\p{N}/u);
        expect(theme.description).not.toMatch(/\p{N}/u);
        expect(theme.theme.length).toBeLessThanOrEqual(80);
        expect(theme.description.length).toBeLessThanOrEqual(300);
      }
      // Across the interview: everyone with an answer in a theme of a question (all but the two odd ones).
      expect(done.result.themes.map((th) => [th.theme, th.description, th.answers])).toEqual([['What customers raised', 'Everything the customers said, together.', 12]]);
    });

    it('pages the codes with limit and an opaque cursor in the Link header, and filters by question and theme', async () => {
      const all = await codesOf({ reportID: done.reportID });
      const paged: CodeRow[] = [];
      let url: string | undefined = `/v1/reports/getCodes?reportID=${done.reportID}&limit=4`;
      let pages = 0;
      while (url) {
        const res = await t.http.get(url).set(bearer(admin)).expect(200);
        expect(res.body.result.length).toBeLessThanOrEqual(4);
        paged.push(...res.body.result);
        pages++;
        const link = res.headers.link as string | undefined;
        if (link) expect(link).toMatch(/^<\/v1\/reports\/getCodes\?reportID=[^>]*&limit=4&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
        url = link ? /^<([^>]+)>/.exec(link)![1] : undefined;
      }
      expect(pages).toBe(Math.ceil(all.length / 4));
      expect(paged).toEqual(all);

      expect(await codesOf({ reportID: done.reportID, questionIndex: 1 })).toEqual(all.filter((c) => c.questionIndex === 1));
      const late = done.result.questions[0].themes.find((th) => th.theme.startsWith('Late'))!;
      const inLate = await codesOf({ reportID: done.reportID, themeID: late.themeID });
      expect(inLate).toEqual(all.filter((c) => c.themeIDs.includes(late.themeID)));
      expect(inLate.map((c) => c.linkID).sort()).toEqual([links[0], links[5], links[6], links[7]].sort());
      const page = await get('/v1/reports/getCodes', { reportID: done.reportID, themeID: late.themeID, limit: 2 }).expect(200);
      expect(page.body.result).toEqual(inLate.slice(0, 2));
      expect(await codesOf({ reportID: done.reportID, themeID: 'all-t1' })).toEqual(all.filter((c) => c.questionIndex !== null && c.themeIDs.length > 0));
      expect(await codesOf({ reportID: done.reportID, themeID: 'q0-t99' })).toEqual([]);
    });

    it('refuses bad paging and filters by name, and hides reports of others', async () => {
      const reportID = done.reportID;
      expectError(await get('/v1/reports/getCodes', { reportID, limit: 0 }), 400, /limit/);
      expectError(await get('/v1/reports/getCodes', { reportID, limit: 1001 }), 400, /limit/);
      expectError(await get('/v1/reports/getCodes', { reportID, cursor: 'bm90IGEgY3Vyc29y' }), 400, /cursor/);
      expectError(await get('/v1/reports/getCodes', { reportID, questionIndex: -1 }), 400, /questionIndex/);
      expectError(await get('/v1/reports/getCodes', { reportID, themeID: 'q0-t1%' }), 400, /themeID/);
      expectError(await get('/v1/reports/getCodes', { reportID, themeID: ['q0-t1', 'q0-t2'] }), 400, /themeID/);
      expectError(await get('/v1/reports/getCodes', { reportID, extra: 1 }), 400, /extra/);
      expectError(await get('/v1/reports/getCodes', {}), 400, /reportID/);
      expectError(await get('/v1/reports/getCodes', { reportID: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f' }), 404, /report/);
      const stranger = await scopedToken(t, { orgID: uniq('other') });
      expectError(await get('/v1/reports/getCodes', { reportID }, stranger), 404, /report/);
    });

    it('answers 409 while a report is still being made', async () => {
      let open!: () => void;
      model.gate = new Promise<void>((resolve) => (open = resolve));
      try {
        const before = model.requests.length;
        const { reportID } = (await post('/v1/reports/addOne', { interviewID, analyst: 'stand-in' }).expect(201)).body.result;
        await waitFor('the run to ask the model', async () => (model.requests.length > before ? true : undefined), 15_000);
        expectError(await get('/v1/reports/getCodes', { reportID }), 409, /only a completed report has codes/);
        open();
        await completed(reportID);
      } finally {
        open?.();
        model.gate = undefined;
      }
    });

    it('exports the answers with their themes: labels "; "-separated in CSV, an array in JSON Lines', async () => {
      const codes = await codesOf({ reportID: done.reportID });
      const labels = new Map(done.result.questions.flatMap((q) => q.themes.map((th) => [th.themeID, th.theme])));
      const themesOf = (c: CodeRow) => c.themeIDs.map((id) => labels.get(id)!);

      const csv = await get('/v1/interviews/exportAnswers', { interviewID, reportID: done.reportID, format: 'csv' }).buffer(true).parse((res, cb) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => cb(null, text));
      });
      expect(csv.status).toBe(200);
      const parsed = Papa.parse<string[]>((csv.body as string).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
      expect(parsed[0].at(-1)).toBe('themes');
      expect(parsed.slice(1).map((row) => row.at(-1))).toEqual(codes.map((c) => themesOf(c).join('; ')));

      const jsonl = await get('/v1/interviews/exportAnswers', { interviewID, reportID: done.reportID, format: 'jsonl' }).buffer(true).parse((res, cb) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => cb(null, text));
      });
      const lines = (jsonl.body as string).trim().split('\n').map((line) => JSON.parse(line) as { answer: string; themes: string[] | null });
      expect(lines.map((l) => [l.answer, l.themes])).toEqual(codes.map((c) => [c.answer, themesOf(c)]));

      // Without a report: no themes column.
      const plain = await get('/v1/interviews/exportAnswers', { interviewID, format: 'jsonl' }).buffer(true).parse((res, cb) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => cb(null, text));
      });
      expect(JSON.parse((plain.body as string).split('\n')[0])).not.toHaveProperty('themes');
    });

    it("refuses to export with another interview's report, or one that is not there", async () => {
      const other = await study(PEOPLE.slice(0, 2));
      const { reportID } = (await post('/v1/reports/addOne', { interviewID: other.interviewID }).expect(201)).body.result;
      await completed(reportID);
      expectError(await get('/v1/interviews/exportAnswers', { interviewID, reportID }), 404, /report/);
      expectError(await get('/v1/interviews/exportAnswers', { interviewID, reportID: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f' }), 404, /report/);
    });
  });

  describe('the codebook loop', () => {
    let interviewID: string;

    beforeAll(async () => {
      ({ interviewID } = await study());
    });

    it('has no codebook at first', async () => {
      expect((await get('/v1/interviews/getCodebook', { interviewID }).expect(200)).body.result).toEqual({ interviewID, questions: [] });
    });

    it('refuses a codebook out of bounds, or of an unknown question, and writes nothing', async () => {
      const stranger = await scopedToken(t, { orgID: uniq('other') });
      const before = await tableCounts(t.db);
      const set = (questions: unknown) => post('/v1/interviews/setCodebook', { interviewID, questions });
      const theme = (overrides: Record<string, unknown> = {}) => ({ theme: 'Price', ...overrides });
      expectError(await set([{ questionIndex: 2, themes: [theme()] }]), 400, /questions\.0\.questionIndex 2 is not a question of this interview: interviews\/getQuestions lists questions 0 to 1/);
      expectError(await set([{ questionIndex: 0, themes: [theme()] }, { questionIndex: 0, themes: [theme()] }]), 400, /repeats questionIndex 0/);
      expectError(await set([{ questionIndex: 0, themes: Array.from({ length: 51 }, (_, i) => theme({ theme: `T${i}` })) }]), 400, /at most 50 themes/);
      expectError(await set([{ questionIndex: 0, themes: [theme({ theme: 'x'.repeat(81) })] }]), 400, /theme must be 1 to 80 characters/);
      expectError(await set([{ questionIndex: 0, themes: [theme({ theme: '   ' })] }]), 400, /non-whitespace/);
      expectError(await set([{ questionIndex: 0, themes: [theme({ description: 'd'.repeat(501) })] }]), 400, /description must be at most 500/);
      expectError(await set([{ questionIndex: 0, themes: [theme({ examples: Array.from({ length: 21 }, () => 'e') })] }]), 400, /examples must be a list of at most 20/);
      expectError(await set([{ questionIndex: 0, themes: [theme({ examples: ['e'.repeat(1001)] })] }]), 400, /examples must be a list/);
      expectError(await set([{ questionIndex: 0, themes: [theme(), theme({ theme: 'PRICE' })] }]), 400, /twice/);
      expectError(await set([{ questionIndex: 0, themes: [theme({ colour: 'red' })] }]), 400, /colour/);
      expectError(await set([{ questionIndex: 0.5, themes: [] }]), 400, /questionIndex/);
      expectError(await set('all'), 400, /questions/);
      expectError(await post('/v1/interviews/setCodebook', { interviewID }), 400, /questions/);
      expectError(await post('/v1/interviews/setCodebook', { interviewID, questions: [] }, stranger), 404, /interview/);
      expectError(await get('/v1/interviews/getCodebook', { interviewID }, stranger), 404, /interview/);
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it('sets a codebook, reports against it, makes a report its codebook, and reports against the edit', async () => {
      // Set: the team's themes for question 1, one of which nobody will mention.
      const codebook = [
        {
          questionIndex: 0,
          themes: [
            { theme: 'Too expensive', description: 'The price is too high for what it is.', examples: ['The price is way too high for two people.'] },
            { theme: 'Late deliveries' },
            { theme: 'Gift cards', description: 'Questions about gift cards.', examples: [] },
          ],
        },
      ];
      expect((await post('/v1/interviews/setCodebook', { interviewID, questions: codebook }).expect(200)).body.result).toEqual({ interviewID, status: 'updated' });
      expect((await get('/v1/interviews/getCodebook', { interviewID })).body.result).toEqual({
        interviewID,
        questions: [
          {
            questionIndex: 0,
            themes: [
              { theme: 'Too expensive', description: 'The price is too high for what it is.', examples: ['The price is way too high for two people.'] },
              { theme: 'Late deliveries', description: null, examples: [] },
              { theme: 'Gift cards', description: 'Questions about gift cards.', examples: [] },
            ],
          },
        ],
      });

      // Report: the codebook's themes in its order, labels kept, the unmentioned one at zero; what they miss emerges.
      const first = await report(interviewID);
      const codes = await codesOf({ reportID: first.reportID });
      expectCountsFromCodes(first.result.questions, codes);
      const q1 = first.result.questions[0] as QuestionOut;
      expect(q1.themes.map((th) => [th.themeID, th.theme, th.answers, th.emerging])).toEqual([
        ['q0-c1', 'Too expensive', 4, false],
        ['q0-c2', 'Late deliveries', 4, false],
        ['q0-c3', 'Gift cards', 0, false],
        ['q0-t1', 'Packaging waste', 4, true],
      ]);
      expect(q1.themes[0].description).toBe('The price is too high for what it is.');
      // Question 2 has no codebook: its own themes, none emerging.
      expect((first.result.questions[1] as QuestionOut).themes.every((th) => !th.emerging && th.themeID.startsWith('q1-t'))).toBe(true);

      // toCodebook: the report's themes become the codebook, with up to 5 quotes as examples.
      const made = (await post('/v1/reports/toCodebook', { reportID: first.reportID }).expect(200)).body.result;
      expect((await get('/v1/interviews/getCodebook', { interviewID })).body.result).toEqual(made);
      expect(made.questions.map((q: { questionIndex: number; themes: { theme: string }[] }) => [q.questionIndex, q.themes.map((th) => th.theme)])).toEqual([
        [0, ['Too expensive', 'Late deliveries', 'Gift cards', 'Packaging waste']],
        [1, ['Same recipes again', 'Too many steps']],
      ]);
      const everything = PEOPLE.flatMap((p) => p.answers);
      for (const q of made.questions as { themes: { examples: string[] }[] }[]) {
        for (const th of q.themes) {
          expect(th.examples.length).toBeLessThanOrEqual(5);
          for (const example of th.examples) expect(everything.some((a) => a.includes(example))).toBe(true);
        }
      }

      // Edit as a team would: rename one, merge two (with both's examples), drop one; set it; report again.
      const [expensive, late, , packaging] = made.questions[0].themes as { theme: string; description: string | null; examples: string[] }[];
      const edited = [
        { questionIndex: 0, themes: [{ ...expensive, theme: 'Price too high' }, { theme: 'Delivery and packaging', description: 'Boxes that come late or in too much plastic.', examples: [...late.examples, ...packaging.examples] }] },
        made.questions[1],
      ];
      await post('/v1/interviews/setCodebook', { interviewID, questions: edited }).expect(200);
      const second = await report(interviewID);
      expectCountsFromCodes(second.result.questions, await codesOf({ reportID: second.reportID }));
      expect((second.result.questions[0] as QuestionOut).themes.map((th) => [th.themeID, th.theme, th.answers, th.emerging])).toEqual([
        ['q0-c1', 'Price too high', 4, false],
        ['q0-c2', 'Delivery and packaging', 8, false],
      ]);
      expect((second.result.questions[1] as QuestionOut).themes.map((th) => [th.themeID, th.theme])).toEqual([
        ['q1-c1', 'Same recipes again'],
        ['q1-c2', 'Too many steps'],
      ]);
      expect((second.result.questions[0] as QuestionOut).other).toEqual({ answers: 2, mentions: 2 });

      // Cleared: reports find their own themes again.
      await post('/v1/interviews/setCodebook', { interviewID, questions: [] }).expect(200);
      expect((await get('/v1/interviews/getCodebook', { interviewID })).body.result).toEqual({ interviewID, questions: [] });
    });

    it('refuses toCodebook for a report not completed, unknown, or of another organization', async () => {
      expectError(await post('/v1/reports/toCodebook', { reportID: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f' }), 404, /report/);
      expectError(await post('/v1/reports/toCodebook', {}), 400, /reportID/);
      const { reportID } = (await post('/v1/reports/addOne', { interviewID }).expect(201)).body.result;
      const stranger = await scopedToken(t, { orgID: uniq('other') });
      expectError(await post('/v1/reports/toCodebook', { reportID }, stranger), 404, /report/);
      await completed(reportID);
    });

    it('refuses maxThemes out of 2 to 30, and keeps a report to it', async () => {
      for (const maxThemes of [1, 31, 2.5, '12']) expectError(await post('/v1/reports/addOne', { interviewID, maxThemes }), 400, /maxThemes must be a whole number from 2 to 30/);
      const done = await report(interviewID, { analyst: 'stand-in', maxThemes: 2 });
      expect(done.maxThemes).toBe(2);
      // The questions the model coded (the closing answers fell back to the offline analysis, which has maxThemes once the analysis branch lands).
      const coded = (done.result.questions as QuestionOut[]).filter((q) => q.questionIndex !== null);
      expect(coded.map((q) => q.themes.length)).toEqual([2, 2]);
      expect((await report(interviewID, { analyst: 'stand-in', maxThemes: null })).maxThemes).toBe(12);
    });
  });

  describe('erasure, after a model wrote digits and copied an interviewee\'s words', () => {
    it('takes the person out of every stored report: codes, counts, quotes and the model\'s text; nothing of theirs remains in any table', async () => {
      const { orgID, interviewID, links } = await study([ANA, ...PEOPLE.slice(1)]);
      const runs = fourWordRuns(ANA.answers);
      // Her words are hers alone: nobody said four of them in a row.
      expect([...fourWordRuns(PEOPLE.flatMap((p) => p.answers))].filter((run) => runs.has(run))).toEqual([]);

      model.groups = COPYING;
      let before;
      try {
        before = await report(interviewID);
      } finally {
        model.groups = GROUPS;
      }
      const late = (before.result.questions[0] as QuestionOut).themes.find((th) => th.theme.startsWith('Late'))!;
      // The model copied her words into its description (its digits are gone).
      expect(late.description).toBe('Ana Torres from Lisbon and my parcel arrived late twice, as others say.');
      const share = (await post('/v1/reports/share', { reportID: before.reportID }).expect(200)).body.result;
      const path = new URL(share.url).pathname;
      const beforeCodes = await codesOf({ reportID: before.reportID });

      const erased = (await post('/v1/participants/erase', { email: `ana.${orgID}@example.com`, orgID }).expect(200)).body.result;
      expect({ invites: erased.invites, reports: erased.reports }).toEqual({ invites: 1, reports: 1 });

      const after = (await get('/v1/reports/getOne', { reportID: before.reportID })).body.result;
      const codes = await codesOf({ reportID: after.reportID });
      expect(codes).toEqual(beforeCodes.filter((c) => c.linkID !== links[0]));
      expectCountsFromCodes(after.result.questions, codes);
      const lateAfter = (after.result.questions[0] as QuestionOut).themes.find((th) => th.themeID === late.themeID)!;
      expect([lateAfter.answers, lateAfter.mentions]).toEqual([late.answers - 1, late.mentions - 1]);
      expect(after.result.questions[0].answered).toBe(before.result.questions[0].answered - 1);
      expect(after.result.invites).toMatchObject({ total: before.result.invites.total - 1, completed: before.result.invites.completed - 1 });
      expect(after.result.sentiment.scored).toBeLessThan(before.result.sentiment.scored);
      // The model quoted her (the longest answer about late boxes is hers): that quote went with her.
      expect(late.quotes.map((q) => q.linkID)).toEqual([links[0]]);
      const herQuotes = (JSON.stringify(before.result).match(new RegExp(`"linkID":"${links[0]}"`, 'g')) ?? []).length;
      expect(herQuotes).toBeGreaterThanOrEqual(2);
      expect(after.result.erased).toEqual({ invites: 1, quotes: herQuotes });
      // The description that held her words is the text of an answer left in the theme, or a neutral one.
      expect(lateAfter.description).not.toMatch(/\b(Ana|Torres|Lisbon)\b/);
      const left = codes.filter((c) => c.themeIDs.includes(late.themeID)).map((c) => c.answer);
      expect(left.some((answer) => answer.startsWith(lateAfter.description.replace(/…$/, ''))) || /withdrawn/.test(lateAfter.description)).toBe(true);
      for (const quote of JSON.stringify(after.result).matchAll(/"linkID":"([^"]+)"/g)) expect(quote[1]).not.toBe(links[0]);

      // Nowhere in the database: no four consecutive words of any of her answers.
      expect(await whereRunsRemain(t.db, runs)).toEqual({});

      // The shared page: none of her words, and it does not claim that no quote was left out.
      const page = await t.http.get(path).expect(200);
      expect(page.text).not.toMatch(/\b(Ana|Torres|Lisbon|salmon|Quinoa)\b/);
      expect(page.text).not.toContain('No quote had to be left out');
      expect(page.text).toContain('Interviewees were erased after the report was made');
    });

    it('does the same when retention erases them: the report keeps no code of theirs', async () => {
      const { interviewID, links } = await study(PEOPLE.slice(1, 5));
      const done = await report(interviewID);
      expect(await codesOf({ reportID: done.reportID })).toHaveLength(12);
      expect(JSON.stringify(done.result)).toContain(links[0]);
      await post('/v1/interviews/updateOne', { interviewID, retentionDays: 1 }).expect(200);
      await t.app.get(RetentionSweeper).sweep(new Date(Date.now() + 2 * DAY));
      expect(await codesOf({ reportID: done.reportID })).toEqual([]);
      const after = (await get('/v1/reports/getOne', { reportID: done.reportID })).body.result;
      expect(after.result.invites.total).toBe(0);
      for (const q of after.result.questions as QuestionOut[]) {
        expect(q).toMatchObject({ answered: 0, coverage: null, other: { answers: 0, mentions: 0 } });
        for (const theme of q.themes) expect([theme.answers, theme.mentions]).toEqual([0, 0]);
      }
      for (const link of links) expect(JSON.stringify(after.result)).not.toContain(link);
    });

    it('goes with its interview when the interview is deleted: codes and codebook too', async () => {
      const { interviewID } = await study(PEOPLE.slice(5, 7));
      const done = await report(interviewID);
      await post('/v1/interviews/setCodebook', { interviewID, questions: [{ questionIndex: 0, themes: [{ theme: 'Late' }] }] }).expect(200);
      expect((await codesOf({ reportID: done.reportID })).length).toBe(6);
      await post('/v1/interviews/deleteOne', { interviewID, cascade: true }).expect(200);
      const [codes] = await t.db.query('SELECT COUNT(*) AS n FROM report_codes WHERE report_id = ?', [done.reportID]);
      const [books] = await t.db.query('SELECT COUNT(*) AS n FROM codebooks WHERE interview_id = ?', [interviewID]);
      expect([Number(codes.n), Number(books.n)]).toEqual([0, 0]);
    });
  });

  describe('the offline analysis codes every answer too', () => {
    let done: { reportID: string; result: { questions: QuestionOut[] } };
    let interviewID: string;

    beforeAll(async () => {
      ({ interviewID } = await study());
      done = await report(interviewID, {});
    });

    it('codes every answer, counts from the codes, labels drawn from the answers, other holding the odd ones', async () => {
      const codes = await codesOf({ reportID: done.reportID });
      expect(codes).toHaveLength(PEOPLE.length * 3);
      expectCountsFromCodes(done.result.questions, codes);
      const [first] = done.result.questions;
      expect(first.themes.length).toBeGreaterThanOrEqual(2);
      for (const odd of ODD) expect(codes.find((c) => c.answer === odd)!.themeIDs).toEqual([]);
      for (const theme of first.themes) {
        // A label is a phrase of its answers: each of its words is in one of them.
        const members = codes.filter((c) => c.themeIDs.includes(theme.themeID)).map((c) => c.answer.toLowerCase());
        for (const word of theme.theme.toLowerCase().match(/[\p{L}]+/gu) ?? []) expect({ theme: theme.theme, word, found: members.some((m) => m.includes(word)) }).toEqual({ theme: theme.theme, word, found: true });
        expect(theme.answers).toBeGreaterThanOrEqual(2);
      }
    });

    it('codes against a codebook offline: the same answers and codebook give the same codes', async () => {
      await post('/v1/interviews/setCodebook', { interviewID, questions: [{ questionIndex: 0, themes: [{ theme: 'price', examples: ['The price is way too high for two people.'] }] }] }).expect(200);
      const one = await report(interviewID, {});
      const two = await report(interviewID, {});
      expect(one.result.questions[0].themes[0]).toMatchObject({ themeID: 'q0-c1', theme: 'price' });
      expect(await codesOf({ reportID: one.reportID })).toEqual(await codesOf({ reportID: two.reportID }));
      expect((await codesOf({ reportID: one.reportID })).some((c) => c.themeIDs.includes('q0-c1'))).toBe(true);
    });
  });
});
