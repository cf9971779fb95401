import { LIST_MAX_ROWS } from '../src/common/limits';
import { sqlDate } from '../src/database/column-types';
import type { AnswerRow } from '../src/invites/answer-rows';
import { TestApp, bearer, expectError, uniq, useTestApp } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';

const GUIDELINES = ['Goal: onboarding (a note, not asked)', '1. How did you first hear about Acme Notes?', '2. What almost made you give up?'].join('\n');
const LONG_1 = 'A colleague showed it to me during a planning meeting last spring, and I liked it.';
const LONG_2 = 'The import was slow and confusing, I nearly gave up on the whole thing that week.';
const ANYTHING = 'No, that is everything I wanted to say about it today, thank you so much.';

/** The export's columns, in order: the CSV header, and every JSON line's keys. */
const EXPORT_HEADER = 'linkID,questionIndex,question,turnIndex,answer,followUp,at,words,sentiment,language,asked,status,startedOn,completedOn,name,email,occupation';

/**
 * A study through the room, as interviewees go through it: one who answers everything, one who gives a
 * short answer (probed) and ends early, one who ends before answering (abandoned), one who never starts.
 * Then what a research team reads back: the questions, the answers (paged and whole) and the export.
 */
describe('Answers of a study: getQuestions, getAnswers, exportAnswers', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  let interviewID: string;
  let productID: string;
  let links: string[];

  const room = {
    start: (linkID: string, name: string, email: string) => t.http.post(`/i/${linkID}/start`).send({ name, email, occupation: '=HYPERLINK("x")', consent: true }).expect(200),
    reply: (linkID: string, content: string) => t.http.post(`/i/${linkID}/reply`).send({ content }).expect(200),
    end: (linkID: string) => t.http.post(`/i/${linkID}/end`).send({}).expect(200),
  };
  const get = (path: string, query: Record<string, unknown>) => t.http.get(path).query(query).set(bearer(admin));
  /** The two invites with answers in the lists' order: made together, so by linkID. */
  const inviteOrder = () => [links[0], links[1]].sort();

  beforeAll(async () => {
    productID = await makeProduct(t, admin, { orgID: uniq('org'), name: 'Acme Notes' });
    interviewID = await makeInterview(t, admin, productID, { interviewName: 'Onboarding', guidelines: GUIDELINES });
    const res = await get('/v1/invites/createInvites', { interviewID, count: 4 });
    links = (res.body.result as string[]).map((url) => new URL(url).pathname.split('/').pop()!);
    const [full, early, abandoned] = links;

    // Everything: question 0, question 1, "anything else?", then the closing.
    await room.start(full, 'Ada Lovelace', 'ada@example.com');
    await room.reply(full, LONG_1);
    await room.reply(full, LONG_2);
    const last = await room.reply(full, ANYTHING);
    expect(last.body.result.status).toBe('completed');

    // A short answer is probed once; the answer to the probe moves on; then the interviewee ends early.
    await room.start(early, 'Grace Hopper', 'grace@example.com');
    await room.reply(early, 'A friend.');
    await room.reply(early, '-1 point: they said it was great for teams and I believed them.');
    expect((await room.end(early)).body.result.status).toBe('completed');

    // Ended before any answer: abandoned.
    await room.start(abandoned, 'Alan Turing', 'alan@example.com');
    const ended = await room.end(abandoned);
    expect(ended.body.result).toMatchObject({ status: 'abandoned', conversation: [] });
  });

  it('lists the questions the interviewer asks, 0-based, without the notes', async () => {
    const res = await get('/v1/interviews/getQuestions', { interviewID });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([
      { questionIndex: 0, question: 'How did you first hear about Acme Notes?' },
      { questionIndex: 1, question: 'What almost made you give up?' },
    ]);
  });

  it('lists the general questions when the guidelines hold none', async () => {
    const bare = await makeInterview(t, admin, productID, { interviewName: 'No questions', guidelines: 'Just notes here.' });
    const res = await get('/v1/interviews/getQuestions', { interviewID: bare });
    expect(res.body.result.length).toBeGreaterThanOrEqual(4);
    expect(res.body.result[0]).toEqual({ questionIndex: 0, question: 'How did you first come across Acme Notes, and what made you try it?' });
  });

  it('records the abandoned interview as abandoned: no completed_on, no profile', async () => {
    const invite = (await get('/v1/invites/getOne', { linkID: links[2] })).body.result;
    expect(invite).toMatchObject({ status: 'abandoned', completed_on: null });
    const profiles = (await get('/v1/profiles/getList', { productID })).body.result as { firstName: string }[];
    expect(profiles.map((p) => p.firstName).sort()).toEqual(['Ada', 'Grace']);
    // The room shows nothing of an interview that is over.
    const session = await t.http.get(`/i/${links[0]}/session`);
    expect(session.body.result).toMatchObject({ status: 'completed', conversation: [] });
  });

  it('answers one row per interviewee answer, in invite then turn order, attributed to its question', async () => {
    const res = await get('/v1/interviews/getAnswers', { interviewID });
    expect(res.status).toBe(200);
    const rows = res.body.result as AnswerRow[];
    const [full, early] = links;
    // Turn 0 is the consent, 1 the opening (question 0), 2 the answer, 3 question 1...
    const byInvite = {
      [full]: [
        [full, 2, 0, false, LONG_1],
        [full, 4, 1, false, LONG_2],
        [full, 6, null, false, ANYTHING],
      ],
      [early]: [
        [early, 2, 0, false, 'A friend.'],
        [early, 4, 0, true, '-1 point: they said it was great for teams and I believed them.'],
      ],
    };
    expect(rows.map((r) => [r.linkID, r.turnIndex, r.questionIndex, r.followUp, r.answer])).toEqual(inviteOrder().flatMap((linkID) => byInvite[linkID]));
    const of = (linkID: string, turnIndex: number) => rows.find((r) => r.linkID === linkID && r.turnIndex === turnIndex)!;
    expect(of(full, 2)).toMatchObject({ question: 'How did you first hear about Acme Notes?', words: 16, language: 'en' });
    expect(of(full, 6).question).toBeNull();
    expect(of(early, 2).words).toBe(2);
    for (const row of rows) {
      expect(row.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(row.sentiment).toEqual(expect.any(Number));
    }
    // LONG_2 is negative, LONG_1 positive (VADER).
    expect(of(full, 4).sentiment).toBeLessThan(0);
    expect(of(full, 2).sentiment).toBeGreaterThan(0);
  });

  it('filters by question', async () => {
    const rows = (await get('/v1/interviews/getAnswers', { interviewID, questionIndex: 0 })).body.result as AnswerRow[];
    const byInvite = { [links[0]]: [LONG_1], [links[1]]: ['A friend.', '-1 point: they said it was great for teams and I believed them.'] };
    expect(rows.map((r) => r.answer)).toEqual(inviteOrder().flatMap((linkID) => byInvite[linkID]));
    expect((await get('/v1/interviews/getAnswers', { interviewID, questionIndex: 7 })).body.result).toEqual([]);
  });

  it('pages answers, also inside one invite, covering each exactly once', async () => {
    const all = ((await get('/v1/interviews/getAnswers', { interviewID })).body.result as AnswerRow[]).map((r) => `${r.linkID}#${r.turnIndex}`);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const res = await get('/v1/interviews/getAnswers', { interviewID, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...(res.body.result as AnswerRow[]).map((r) => `${r.linkID}#${r.turnIndex}`));
      const link = res.headers.link as string | undefined;
      if (!link) break;
      cursor = new URL(/<([^>]+)>/.exec(link)![1], 'http://x').searchParams.get('cursor')!;
    }
    expect(seen).toEqual(all);
    expect(seen).toHaveLength(5);
  });

  it('exports CSV: a BOM, a header, RFC 4180 quoting and CRLF, formula cells neutralised', async () => {
    const res = await get('/v1/interviews/exportAnswers', { interviewID, format: 'csv' }).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="answers-${interviewID}.csv"`);
    const text = (res.body as Buffer).toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(EXPORT_HEADER);
    expect(lines).toHaveLength(1 + 5 + 1);
    expect(lines[6]).toBe('');
    const line = (linkID: string, turnIndex: number) => lines.find((l) => l.startsWith(`${linkID},`) && l.split(',')[3] === String(turnIndex))!;
    const probed = lines.find((l) => l.startsWith(`${links[1]},0,`) && l.includes(',4,'))!;
    // A free-text cell starting with - or = is prefixed with ', and quoted when it holds a comma or a quote.
    expect(probed).toContain(`,'-1 point: they said it was great for teams and I believed them.,true,`);
    expect(probed).toContain(`,"'=HYPERLINK(""x"")"`);
    expect(lines.find((l) => l.startsWith(`${links[0]},0,`))!.startsWith(`${links[0]},0,How did you first hear about Acme Notes?,2,"A colleague showed it to me during a planning meeting last spring, and I liked it.",false,`)).toBe(true);
    expect(lines.some((l) => l.startsWith(`${links[0]},,,6,`))).toBe(true);
    expect(line(links[0], 2)).toMatch(/,completed,\d{4}-[^,]+Z,\d{4}-[^,]+Z,Ada Lovelace,ada@example.com,/);
    // Invite order, then turn order.
    expect(lines.slice(1, 6).map((l) => l.split(',')[0])).toEqual(inviteOrder().flatMap((linkID) => (linkID === links[0] ? [linkID, linkID, linkID] : [linkID, linkID])));
  });

  it('exports JSON Lines: one object per answer with the export columns, values as they are', async () => {
    const res = await get('/v1/interviews/exportAnswers', { interviewID, format: 'jsonl' }).buffer(true).parse((r, done) => {
      let body = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (body += c));
      r.on('end', () => done(null, body));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = (res.body as string).split('\n');
    expect(lines.pop()).toBe('');
    const rows = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).toHaveLength(5);
    expect(Object.keys(rows[0])).toEqual(EXPORT_HEADER.split(','));
    expect(rows.find((r) => r.followUp)).toMatchObject({ answer: '-1 point: they said it was great for teams and I believed them.', occupation: '=HYPERLINK("x")', status: 'completed', name: 'Grace Hopper', linkID: links[1], turnIndex: 4 });
  });

  describe('an interview of many invites', () => {
    const INVITES = 450;
    let bigID: string;
    let order: string[];

    /** Completed invites written straight into the table, as the room would have left them: two answers each. */
    beforeAll(async () => {
      bigID = await makeInterview(t, admin, productID, { interviewName: 'Big', guidelines: GUIDELINES });
      const base = Date.UTC(2026, 0, 1);
      order = [];
      for (let i = 0; i < INVITES; i++) {
        const linkID = `big-${String(i).padStart(4, '0')}-${uniq('l')}`;
        order.push(linkID);
        const at = (ms: number) => sqlDate(new Date(base + i * 1000 + ms));
        const conversation = [
          { role: 'system', content: 'Consent given 2026-01-01T00:00:00.000Z: yes' },
          { role: 'interviewer', content: 'How did you first hear about Acme Notes?' },
          { role: 'interviewee', content: `Answer ${i} to the first question.` },
          { role: 'interviewer', content: 'What almost made you give up?' },
          { role: 'interviewee', content: `Answer ${i} to the second question.` },
          { role: 'interviewer', content: 'Thank you, goodbye!' },
        ];
        const meta = conversation.map((_turn, n) => ({ at: new Date(base + i * 1000 + n).toISOString(), questionIndex: n === 1 ? 0 : n === 3 ? 1 : null }));
        await t.db.query(
          'INSERT INTO invites (link_id, interview_id, product_id, org_id, user_info, status, created_at, updated_at, completed_on, expires_on, conversation, turn_meta, answer_count, started_on, language) ' +
            "VALUES (?, ?, ?, NULL, NULL, 'completed', ?, ?, ?, ?, ?, ?, 2, ?, 'en')",
          [linkID, bigID, productID, at(0), at(5), at(5), sqlDate(new Date(base + 400 * 86_400_000)), JSON.stringify(conversation), JSON.stringify(meta), at(0)],
        );
      }
    });

    it('streams the whole list, every answer once, in order, when it spans several reads', async () => {
      const res = await get('/v1/interviews/getAnswers', { interviewID: bigID });
      expect(res.status).toBe(200);
      const rows = res.body.result as AnswerRow[];
      expect(rows).toHaveLength(2 * INVITES);
      expect(rows.map((r) => `${r.linkID}#${r.turnIndex}`)).toEqual(order.flatMap((linkID) => [`${linkID}#2`, `${linkID}#4`]));
      expect(rows[2 * 300 + 1]).toMatchObject({ answer: 'Answer 300 to the second question.', questionIndex: 1, question: 'What almost made you give up?' });
    });

    it('refuses an unpaged list of more answers than a list may hold, before the first byte', async () => {
      await t.db.query('UPDATE invites SET answer_count = ? WHERE link_id = ?', [LIST_MAX_ROWS, order[0]]);
      try {
        expectError(await get('/v1/interviews/getAnswers', { interviewID: bigID }), 400, /more than 100000 answers: page them/);
        // Paged, it still reads.
        expect((await get('/v1/interviews/getAnswers', { interviewID: bigID, limit: 3 })).body.result).toHaveLength(3);
      } finally {
        await t.db.query('UPDATE invites SET answer_count = 2 WHERE link_id = ?', [order[0]]);
      }
    });

    it('exports them all as CSV', async () => {
      const res = await get('/v1/interviews/exportAnswers', { interviewID: bigID }).buffer(true).parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
      const lines = (res.body as Buffer).toString('utf8').split('\r\n');
      expect(lines).toHaveLength(1 + 2 * INVITES + 1);
      expect(lines[1 + 2 * INVITES - 1].startsWith(`${order[INVITES - 1]},1,What almost made you give up?,4,Answer ${INVITES - 1} to the second question.,false,`)).toBe(true);
    });
  });

  it('refuses bad input with 400 and unknown interviews with 404', async () => {
    expectError(await get('/v1/interviews/exportAnswers', { interviewID, format: 'xlsx' }), 400, /format must be one of csv, jsonl/);
    expectError(await get('/v1/interviews/getAnswers', { interviewID, questionIndex: -1 }), 400, /questionIndex/);
    expectError(await get('/v1/interviews/getAnswers', { interviewID, cursor: 'bm90LWEtY3Vyc29y' }), 400, /cursor is not valid/);
    expectError(await get('/v1/interviews/getAnswers', {}), 400, /interviewID/);
    expectError(await get('/v1/interviews/getQuestions', { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' }), 404);
  });
});
