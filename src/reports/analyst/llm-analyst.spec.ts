import { Logger, LoggerService } from '@nestjs/common';
import { IncomingHttpHeaders, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countWords } from '../../interviewers/default-interviewer';
import { Secret } from '../../config/server-fields';
import { OpenAiAgentConfig } from '../../interviewers/interviewers.config';
import type { AnalysisAnswer, AnalysisOptions, AnalysisQuestion, AnalysisResult, QuestionReport, Theme } from '../analysis/analysis.types';
import { median, sentimentSplit } from '../analysis/stats';
import { Yielder } from '../analysis/yielder';
import type { AnalysisInput } from './analyst';
import { LlmAnalyst, modelText } from './llm-analyst';

/**
 * The analyst against a real HTTP server speaking the chat-completions protocol on a free local port:
 * it records every request and answers as each test tells it to, reading the ids out of the prompt as a
 * model would. The offline analysis it starts from is a fixed stand-in (the offline algorithm is tested
 * on its own), with a code for every answer, so that what falls back to it can be traced.
 */
interface Recorded {
  url: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format: { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
  };
}
type Responder = (request: Recorded, res: ServerResponse) => void;

const API_KEY = 'sk-test-9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a40';
/** Recognisable linkIDs: none may reach a prompt. */
const LINK = { ana: 'lnk-ANA-41c9e2f0a7d35b86', ben: 'lnk-BEN-93d1b6c4e2f07a15', cleo: 'lnk-CLEO-5a7f0d3b18c9e264', dev: 'lnk-DEV-c2e8a4f6910b3d57' };
const INTERVIEWEES = ['Ana López', 'ana.lopez@example.com', 'Ben Okafor', 'ben@example.org'];

function answer(linkID: string, turnIndex: number, questionIndex: number | null, text: string, sentiment: number | null, language = 'en'): AnalysisAnswer {
  return { linkID, turnIndex, questionIndex, answer: text, words: countWords(text), sentiment, language, followUp: false };
}

const QUESTIONS: AnalysisQuestion[] = [
  { questionIndex: 0, question: 'What made you sign up?' },
  { questionIndex: 1, question: 'What almost made you give up?' },
];

const ANSWERS: AnalysisAnswer[] = [
  /* 0 */ answer(LINK.ana, 1, 0, 'A colleague recommended it for our sprint planning.', 0.3),
  /* 1 */ answer(LINK.ben, 1, 0, 'The free plan was generous enough to try it with the whole team.', 0.6),
  /* 2 */ answer(LINK.cleo, 1, 0, 'My manager asked us to move our meeting notes into it.', 0),
  /* 3 */ answer(LINK.ana, 3, 0, 'Also the free trial was longer than what we had before.', 0.1),
  /* 4 */ answer(LINK.dev, 1, 0, 'A friend uses it daily and recommended the free trial to me.', 0.5),
  /* 5 */ answer(LINK.ana, 5, 1, 'The import from our old tool failed twice and I nearly quit.', -0.6),
  /* 6 */ answer(LINK.ben, 3, 1, 'Setting up the workspace took far too long for a small team.', -0.3),
  /* 7 */ answer(LINK.cleo, 3, 1, 'Nothing really, it worked from day one.', 0.2),
  /* 8 */ answer(LINK.dev, 3, 1, 'Die Import-Funktion brach bei großen Dateien ständig ab.', -0.7, 'de'),
  /* 9 */ answer(LINK.ben, 5, null, 'Please add a dark mode, my eyes would thank you.', 0.4),
  // A question the interview does not list: reported with the unattributed answers.
  /* 10 */ answer(LINK.dev, 5, 7, 'Offline mode on the train would be great.', 0.6),
];

const CONTEXT: AnalysisInput['context'] = { productName: 'Acme Notes', productDesc: 'A note-taking app for teams.', interviewName: 'Onboarding friction, Q4' };
const OPTIONS: AnalysisOptions = { maxThemes: 12, codebook: [] };
const INPUT: AnalysisInput = { questions: QUESTIONS, answers: ANSWERS, context: CONTEXT, options: OPTIONS };

const offlineTheme = (themeID: string, label: string, quotes: number[] = []): Theme => ({
  themeID,
  theme: label,
  description: `Offline: ${label}.`,
  keyphrases: [label],
  answers: 0,
  mentions: 0,
  quotes: quotes.map((doc) => ({ linkID: ANSWERS[doc].linkID, turnIndex: ANSWERS[doc].turnIndex, text: ANSWERS[doc].answer.split(' ').slice(0, 4).join(' ') })),
  emerging: false,
  language: 'en',
});
const offlineRow = (questionIndex: number | null, themes: Theme[]): QuestionReport => ({
  questionIndex,
  question: QUESTIONS.find((q) => q.questionIndex === questionIndex)?.question ?? null,
  answered: 0,
  medianWords: null,
  sentiment: sentimentSplit([]),
  keyphrases: [{ phrase: 'offline phrase', answers: 2 }],
  themes,
  quotes: [],
  coverage: null,
  other: { answers: 0, mentions: 0 },
});
/**
 * The offline codes: question 1's answers about free plans in "free", question 2's import answers in
 * "import", the rest other; every answer in "all of it" across the interview. For other answers than
 * ANSWERS: every answer to question 1 in "free".
 */
const OFFLINE_THEMES: Record<number, string[]> = { 1: ['q0-t1'], 3: ['q0-t1'], 4: ['q0-t1'], 5: ['q1-t1'], 8: ['q1-t1'] };
function offlineResult(answers: readonly AnalysisAnswer[] = ANSWERS): AnalysisResult {
  const themesOf = (doc: number) => (answers === ANSWERS ? (OFFLINE_THEMES[doc] ?? []) : answers[doc].questionIndex === 0 ? ['q0-t1'] : []);
  return {
    questions: [offlineRow(0, [offlineTheme('q0-t1', 'free', [1])]), offlineRow(1, [offlineTheme('q1-t1', 'import', [5])]), offlineRow(null, [])],
    themes: [offlineTheme('all-t1', 'all of it')],
    droppedQuotes: 0,
    notes: ['An offline note.'],
    codes: answers.map((a, doc) => ({ linkID: a.linkID, turnIndex: a.turnIndex, questionIndex: a.questionIndex, themeIDs: themesOf(doc), acrossThemeIDs: ['all-t1'] })),
  };
}

/** A chat completion whose message content is `content`. */
function completion(content: string | null, finishReason = 'stop'): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1763800000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
  });
}

const send = (res: ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(body);
};
const reply = (res: ServerResponse, value: unknown) => send(res, completion(JSON.stringify(value)));

const kindOf = (request: Recorded) => request.body.response_format.json_schema.name;
const userOf = (request: Recorded) => request.body.messages.find((m) => m.role === 'user')?.content ?? '';
const linesStarting = (request: Recorded, prefix: string) =>
  userOf(request)
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => JSON.parse(line));
/** The answers a request lists, as the model reads them. */
const answerLines = (request: Recorded): { id: string; text: string; cut?: boolean }[] => linesStarting(request, '{"id":"a');
/** The themes a coding request lists. */
const themeLines = (request: Recorded): { id: string; theme: string; description: string; examples?: string[] }[] => linesStarting(request, '{"id":"T');
/** The question themes the interview-wide request lists. */
const questionThemeLines = (request: Recorded): { id: string; question: number | null; theme: string; interviewees: number; quotes?: { answer: string; text: string }[] }[] =>
  linesStarting(request, '{"id":"t');
/** 1-based, as the prompt numbers it; null for the unattributed answers. */
const questionOf = (request: Recorded): number | null => {
  const match = /\(question (\d+) of the interview\)/.exec(userOf(request));
  return match ? Number(match[1]) : null;
};
const idOf = (request: Recorded, label: string) => themeLines(request).find((t) => t.theme === label)?.id;

/** What a sensible model proposes for each question. */
const PROPOSALS: Record<string, { theme: string; description: string }[]> = {
  '1': [
    { theme: 'Recommended by others', description: 'Someone they trust pointed them to it.' },
    { theme: 'Free plan', description: 'The free plan or trial made it easy to start.' },
  ],
  '2': [
    { theme: 'Import problems', description: 'Importing old notes failed.' },
    { theme: 'Slow setup', description: 'Setting up took long.' },
    { theme: 'No trouble', description: 'Nothing almost made them give up.' },
  ],
  null: [{ theme: 'Feature wishes', description: 'Things they would like added.' }],
};
/** How a sensible model codes: by what the answer says. */
const RULES: [RegExp, string][] = [
  [/recommend|friend|colleague/i, 'Recommended by others'],
  [/free/i, 'Free plan'],
  [/import/i, 'Import problems'],
  [/setting up/i, 'Slow setup'],
  [/nothing really/i, 'No trouble'],
  [/mode/i, 'Feature wishes'],
];

const propose: Responder = (request, res) => reply(res, { themes: PROPOSALS[String(questionOf(request))] ?? [] });
/** Codes each answer by RULES against the themes listed, quoting the first four words of each theme's first answer. */
const code: Responder = (request, res) => {
  const quotes: { theme: string; answer: string; text: string }[] = [];
  const codes = answerLines(request).map((line) => {
    const themes = RULES.filter(([rule]) => rule.test(line.text))
      .map(([, label]) => idOf(request, label))
      .filter((id): id is string => id !== undefined);
    for (const theme of themes) if (!quotes.some((q) => q.theme === theme)) quotes.push({ theme, answer: line.id, text: line.text.split(' ').slice(0, 4).join(' ') });
    return { answer: line.id, themes };
  });
  reply(res, { codes, quotes });
};
/** Brings every question theme together in one theme across the interview. */
const across: Responder = (request, res) =>
  reply(res, { themes: [{ theme: 'All of it', description: 'Everything said.', questionThemes: questionThemeLines(request).map((l) => l.id), quotes: [] }] });
/** Translates each answer listed as "(en) <answer>". */
const translate: Responder = (request, res) => {
  const user = request.body.messages.at(-1)!.content;
  const lines = user.split('\n').filter((line) => line.startsWith('{"id":"a')).map((line) => JSON.parse(line) as { id: string; text: string });
  reply(res, { translations: lines.map((line) => ({ answer: line.id, text: `(en) ${line.text}` })) });
};

const model =
  (parts: { propose?: Responder; code?: Responder; across?: Responder } = {}): Responder =>
  (request, res) =>
    ({ propose_themes: parts.propose ?? propose, code_answers: parts.code ?? code, interview_themes: parts.across ?? across })[kindOf(request)]!(request, res);
/** `special` for question n (1-based; null: the unattributed answers), `otherwise` for the others. */
const forQuestion =
  (n: number | null, special: Responder, otherwise: Responder): Responder =>
  (request, res) =>
    (questionOf(request) === n ? special : otherwise)(request, res);

const NOTE_Q2 = 'Themes of question 2 ("What almost made you give up?") are the offline analysis:';
const themesOf = (result: AnalysisResult, row: number) => result.questions[row].themes.map((t) => [t.themeID, t.theme, t.answers, t.mentions]);
const codesOf = (result: AnalysisResult, docs: number[]) => docs.map((doc) => result.codes[doc].themeIDs);

describe(LlmAnalyst.name, () => {
  let server: Server;
  let baseUrl: string;
  let requests: Recorded[];
  let translationRequests: Recorded[];
  let translator: Responder | undefined;
  let respond: Responder;
  let logs: { message: unknown; context: unknown }[];

  const config = (overrides: Partial<OpenAiAgentConfig> = {}): OpenAiAgentConfig => ({
    kind: 'openai',
    baseUrl,
    model: 'test-model',
    apiKey: new Secret(API_KEY),
    timeoutMs: 5000,
    maxTurns: 30,
    description: null,
    contextTokens: 8192,
    ...overrides,
  });
  const offline = { analyze: (input: { answers: AnalysisAnswer[] }) => Promise.resolve(offlineResult(input.answers.length === ANSWERS.length ? ANSWERS : input.answers)) };
  const analyze = (overrides: Partial<OpenAiAgentConfig> = {}, input: AnalysisInput = INPUT, run: Partial<Parameters<LlmAnalyst['analyze']>[1]> = {}) =>
    new LlmAnalyst('llm-test', config(overrides), { offline }).analyze(input, { yielder: new Yielder(), ...run });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const request: Recorded = { url: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) };
        // The translation of the answers in other languages than the report's comes first; the tests of it read them apart.
        if (kindOf(request) === 'translate_answers') {
          translationRequests.push(request);
          return (translator ?? translate)(request, res);
        }
        requests.push(request);
        respond(request, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const capture = (message: unknown, context?: unknown) => void logs.push({ message, context });
    const logger: LoggerService = { log: capture, warn: capture, error: capture, debug: capture, verbose: capture, fatal: capture };
    Logger.overrideLogger(logger);
  });

  beforeEach(() => {
    requests = [];
    translationRequests = [];
    translator = undefined;
    logs = [];
    respond = model();
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  describe('the requests', () => {
    it('proposes, then codes, each question with answers, then groups the themes across the interview, one request at a time', async () => {
      let open = 0;
      let most = 0;
      const inner = model();
      respond = (request, res) => {
        most = Math.max(most, ++open);
        setTimeout(() => {
          open--;
          inner(request, res);
        }, 20);
      };
      await analyze();
      expect(requests.map((r) => [r.url, r.body.model, kindOf(r), questionOf(r)])).toEqual([
        ['/v1/chat/completions', 'test-model', 'propose_themes', 1],
        ['/v1/chat/completions', 'test-model', 'code_answers', 1],
        ['/v1/chat/completions', 'test-model', 'propose_themes', 2],
        ['/v1/chat/completions', 'test-model', 'code_answers', 2],
        ['/v1/chat/completions', 'test-model', 'propose_themes', null],
        ['/v1/chat/completions', 'test-model', 'code_answers', null],
        ['/v1/chat/completions', 'test-model', 'interview_themes', null],
      ]);
      expect(most).toBe(1);
      for (const request of requests) {
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
        expect(request.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
      }
    });

    it('sends strict schemas: every property required, no other allowed', async () => {
      await analyze();
      type Schema = { required: string[]; additionalProperties: boolean; properties: Record<string, { items: Schema }> };
      const schemaOf = (kind: string) => requests.find((r) => kindOf(r) === kind)!.body.response_format.json_schema.schema as unknown as Schema;
      const proposal = schemaOf('propose_themes');
      expect(proposal).toMatchObject({ required: ['themes'], additionalProperties: false });
      expect(proposal.properties.themes.items).toMatchObject({ required: ['theme', 'description'], additionalProperties: false });
      const coding = schemaOf('code_answers');
      expect(coding).toMatchObject({ required: ['codes', 'quotes'], additionalProperties: false });
      expect(coding.properties.codes.items).toMatchObject({ required: ['answer', 'themes'], additionalProperties: false });
      expect(coding.properties.quotes.items).toMatchObject({ required: ['theme', 'answer', 'text', 'translation'], additionalProperties: false });
      expect(schemaOf('interview_themes').properties.themes.items).toMatchObject({ required: ['theme', 'description', 'questionThemes', 'quotes'], additionalProperties: false });
    });

    it('says the job, the context and the rules, and lists the question, its themes and its answers under ids', async () => {
      await analyze();
      const [proposeSystem, proposeUser] = requests[2].body.messages.map((m) => m.content);
      expect(proposeSystem).toMatch(/^You are a qualitative researcher building the codebook/);
      expect(proposeSystem).toContain('The interview "Onboarding friction, Q4" is about the product "Acme Notes".');
      expect(proposeSystem).toContain('About the product: A note-taking app for teams.');
      expect(proposeSystem).toMatch(/write no numbers or digits/);
      expect(proposeUser).toContain('The question (question 2 of the interview): "What almost made you give up?"');
      expect(proposeUser).toContain('Propose at most 12 themes');
      const [codeSystem] = requests[3].body.messages.map((m) => m.content);
      expect(codeSystem).toMatch(/Give every answer listed its code/);
      expect(codeSystem).toMatch(/up to 3/);
      expect(codeSystem).toMatch(/copied character for character/);
      expect(themeLines(requests[3]).map((t) => [t.id, t.theme])).toEqual([
        ['T1', 'Import problems'],
        ['T2', 'Slow setup'],
        ['T3', 'No trouble'],
      ]);
      expect(answerLines(requests[3])).toEqual([5, 6, 7, 8].map((doc) => ({ id: `a${doc + 1}`, text: ANSWERS[doc].answer, ...(doc === 8 ? { translation: `(en) ${ANSWERS[8].answer}` } : {}) })));
      // The answers of no listed question: the closing one, and the one naming a question the interview does not have.
      expect(answerLines(requests[5]).map((l) => l.text)).toEqual([ANSWERS[9].answer, ANSWERS[10].answer]);
    });

    it("never sends a linkID, an interviewee's name or email address, or the key in a prompt", async () => {
      await analyze();
      expect(requests).toHaveLength(7);
      for (const { raw } of requests) {
        for (const secret of [...Object.values(LINK), ...INTERVIEWEES, API_KEY]) expect(raw).not.toContain(secret);
        expect(raw).not.toMatch(/lnk-/);
      }
    });

    it('sends the key as a Bearer token and nowhere else', async () => {
      respond = (_request, res) => send(res, '{"error": "boom"}', 500);
      const result = await analyze();
      expect(requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${API_KEY}`, `Bearer ${API_KEY}`, `Bearer ${API_KEY}`]);
      expect(logs.length).toBeGreaterThan(0);
      for (const text of [JSON.stringify(result), JSON.stringify(logs), ...requests.map((r) => r.raw)]) {
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(API_KEY.slice(3, 20));
      }
    });

    it('sends no Authorization header without a key', async () => {
      await analyze({ apiKey: null });
      expect(requests.map((r) => r.headers.authorization)).toEqual(new Array(7).fill(undefined));
    });
  });

  describe('every answer coded', () => {
    it('gives every answer a code: the themes the model chose of its question, [] for none, in the order of the themes', async () => {
      const result = await analyze();
      expect(result.codes.map((c) => [c.linkID, c.turnIndex, c.questionIndex])).toEqual(ANSWERS.map((a) => [a.linkID, a.turnIndex, a.questionIndex]));
      // Question 1: answer 4 is both recommended and free; answer 2 fits no theme (other). Most interviewees first.
      expect(codesOf(result, [0, 1, 2, 3, 4])).toEqual([['q0-t2'], ['q0-t1'], [], ['q0-t1'], ['q0-t1', 'q0-t2']]);
      expect(themesOf(result, 0)).toEqual([
        ['q0-t1', 'Free plan', 3, 3],
        ['q0-t2', 'Recommended by others', 2, 2],
      ]);
      // Question 2: the German answer is coded too (the model read "Import").
      expect(codesOf(result, [5, 6, 7, 8])).toEqual([['q1-t1'], ['q1-t2'], ['q1-t3'], ['q1-t1']]);
      expect(themesOf(result, 2)).toEqual([['qx-t1', 'Feature wishes', 2, 2]]);
    });

    it('counts every theme from the codes, coverage and other too, whatever the model states', async () => {
      respond = model({
        code: (request, res) => {
          const lines = answerLines(request);
          // "answers": 99 and "count" are the model's own: ignored.
          reply(res, { codes: lines.map((l) => ({ answer: l.id, themes: l.text.includes('free') ? ['T2'] : [], answers: 99 })), quotes: [], count: 42 });
        },
      });
      const result = await analyze();
      const first = result.questions[0];
      expect(first.themes.map((t) => [t.theme, t.answers, t.mentions])).toEqual([['Free plan', 3, 3]]);
      expect(first.coverage).toBe(0.6);
      expect(first.other).toEqual({ answers: 2, mentions: 2 });
      expect(first.answered).toBe(4);
      // A proposed theme no answer was coded with is left out.
      expect(first.themes.map((t) => t.theme)).not.toContain('Recommended by others');
    });

    it('keeps up to 3 themes an answer, each once, and ignores theme and answer ids it never gave', async () => {
      respond = model({
        propose: (_request, res) => reply(res, { themes: ['One', 'Two', 'Three', 'Four'].map((theme) => ({ theme, description: `${theme}.` })) }),
        code: (request, res) =>
          reply(res, {
            codes: [
              ...answerLines(request).map((l) => ({ answer: l.id, themes: ['T4', 'T1', 'T1', 'T9', 'T2', 'T3'] })),
              { answer: 'a999', themes: ['T1'] },
              { answer: 'lnk-ANA', themes: ['T1'] },
            ],
            quotes: [],
          }),
      });
      const result = await analyze();
      // T4, T1, T2 are kept (T9 does not exist), then ordered as the question's themes are.
      expect(result.codes[0].themeIDs).toHaveLength(3);
      expect(result.questions[0].themes.map((t) => t.theme)).toEqual(['One', 'Two', 'Four']);
      expect(result.codes[0].themeIDs).toEqual(['q0-t1', 'q0-t2', 'q0-t3']);
      expect(result.questions[0].themes.every((t) => t.mentions === 5)).toBe(true);
    });

    it('an answer the model leaves out of its codes is in other', async () => {
      respond = model({ code: (request, res) => reply(res, { codes: answerLines(request).slice(1).map((l) => ({ answer: l.id, themes: ['T1'] })), quotes: [] }) });
      const result = await analyze();
      expect(result.codes[0].themeIDs).toEqual([]);
      expect(result.questions[0].other).toEqual({ answers: 1, mentions: 1 });
    });

    it("writes every theme in the report's language: English unless the report names another", async () => {
      const result = await analyze();
      expect(result.questions[1].themes.map((t) => [t.theme, t.language])).toEqual([
        ['Import problems', 'en'],
        ['Slow setup', 'en'],
        ['No trouble', 'en'],
      ]);
      expect(result.themes.map((t) => t.language)).toEqual(['en']);
      const german = await analyze({}, { ...INPUT, context: { ...CONTEXT, language: 'de' } });
      expect([...german.questions[1].themes, ...german.themes].map((t) => t.language)).toEqual(['de', 'de', 'de', 'de']);
      expect(requests.at(-1)!.body.messages[0].content).toContain('Write labels and descriptions in German (Deutsch), whatever language the answers are in');
    });

    it('keeps everything else of each question as the offline analysis made it', async () => {
      const result = await analyze();
      expect(result.questions[0].keyphrases).toEqual([{ phrase: 'offline phrase', answers: 2 }]);
      expect(result.notes[0]).toBe('An offline note.');
      // Counted from the codes: the answers and their words and scores.
      const first = ANSWERS.slice(0, 5);
      expect(result.questions[0]).toMatchObject({ answered: 4, medianWords: median(first.map((a) => a.words)), sentiment: sentimentSplit(first.map((a) => a.sentiment)) });
    });
  });

  describe("the model's words", () => {
    it('removes every number from its labels and descriptions, and cuts them to 80 and 300 characters', async () => {
      respond = model({
        propose: (request, res) =>
          reply(res, {
            themes:
              questionOf(request) === 1
                ? [
                    { theme: `3 of 5 users: ${'very '.repeat(30)}long`, description: `12% (2,000 people) said it in 2024; ${'more '.repeat(80)}` },
                    { theme: 'Free plan ٣ Ｑ４', description: 'Three said so.' },
                    { theme: '42', description: 'Only a number.' },
                  ]
                : [],
          }),
        code: (request, res) => reply(res, { codes: answerLines(request).map((l) => ({ answer: l.id, themes: ['T1', 'T2', 'T3'] })), quotes: [] }),
      });
      const result = await analyze();
      const themes = result.questions[0].themes;
      // A label that is only a number is no label.
      expect(themes).toHaveLength(2);
      for (const theme of themes) {
        expect(theme.theme).not.toMatch(/\p{N}/u);
        expect(theme.description).not.toMatch(/\p{N}/u);
        expect(theme.theme.length).toBeLessThanOrEqual(80);
        expect(theme.description.length).toBeLessThanOrEqual(300);
      }
      expect(themes[0].theme).toMatch(/^of users: very very/);
      expect(themes[0].theme).toMatch(/…$/);
      expect(themes[0].description).toMatch(/^\(people\) said it in; more more/);
      expect(themes[1].theme).toBe('Free plan Ｑ');
    });

    it.each([
      ['In 2024, 12 of 40 users (30%) said so.', 'In, of users said so.'],
      ['Rated 4.5/5 by most', 'Rated / by most'],
      ['No numbers here', 'No numbers here'],
      ['١٢٣', ''],
      ['bad\u0000text', ''],
    ])('modelText(%j) is %j', (text, expected) => {
      expect(modelText(text, 80)).toBe(expected);
    });

    it('keeps verbatim quotes of answers coded with the theme; drops paraphrases, quotes of other answers and unknown ids, and counts them', async () => {
      respond = model({
        code: (request, res) => {
          if (questionOf(request) !== 1) return code(request, res);
          const lines = answerLines(request);
          const id = (doc: number) => lines.find((l) => l.text === ANSWERS[doc].answer)!.id;
          reply(res, {
            codes: lines.map((l) => ({ answer: l.id, themes: RULES.filter(([rule]) => rule.test(l.text)).map(([, label]) => idOf(request, label)!) })),
            quotes: [
              { theme: 'T1', answer: id(0), text: 'A colleague recommended it' },
              { theme: 'T1', answer: id(0), text: 'A coworker suggested it' },
              { theme: 'T1', answer: id(2), text: 'My manager asked us' },
              { theme: 'T2', answer: 'a999', text: 'The free plan' },
              { theme: 'T7', answer: id(1), text: 'The free plan was generous' },
              { theme: 'T2', answer: id(1), text: 'The free plan was generous' },
              { theme: 'T2', answer: id(1), text: 'The free plan was generous' },
            ],
          });
        },
      });
      const result = await analyze();
      const themeNamed = (label: string) => result.questions[0].themes.find((t) => t.theme === label)!;
      const [recommended, free] = [themeNamed('Recommended by others'), themeNamed('Free plan')];
      expect(recommended.quotes).toEqual([{ linkID: LINK.ana, turnIndex: 1, text: 'A colleague recommended it', translation: null }]);
      expect(free.quotes).toEqual([{ linkID: LINK.ben, turnIndex: 1, text: 'The free plan was generous', translation: null }]);
      // The paraphrase, the quote of an answer not in its theme, the unknown answer and the unknown theme.
      expect(result.droppedQuotes).toBe(4);
    });
  });

  describe('maxThemes and the codebook', () => {
    it('proposes at most maxThemes themes a question, and keeps no more', async () => {
      respond = model({
        propose: (_request, res) => reply(res, { themes: ['One', 'Two', 'Three', 'Four'].map((theme) => ({ theme, description: `${theme}.` })) }),
        code: (request, res) => reply(res, { codes: answerLines(request).map((l) => ({ answer: l.id, themes: themeLines(request).map((t) => t.id).slice(0, 3) })), quotes: [] }),
      });
      const result = await analyze({}, { ...INPUT, options: { maxThemes: 2, codebook: [] } });
      expect(userOf(requests[0])).toContain('Propose at most 2 themes');
      expect(themeLines(requests[1]).map((t) => t.theme)).toEqual(['One', 'Two']);
      expect(result.questions.every((q) => q.themes.length <= 2)).toBe(true);
    });

    it("codes against a codebook: its themes keep their labels, order and descriptions (q<k>-c<n>), a theme no answer matches stays, new ones are emerging", async () => {
      const codebook = [
        {
          questionIndex: 1,
          themes: [
            { theme: 'Data migration', description: 'Moving old notes in.', examples: ['The import kept failing.', 'x'.repeat(500)] },
            { theme: 'Pricing', description: null, examples: [] },
          ],
        },
      ];
      respond = model({
        propose: (request, res) => reply(res, { themes: questionOf(request) === 2 ? [{ theme: 'Slow setup', description: 'Setting up took long.' }, { theme: 'pricing', description: 'Dup.' }] : PROPOSALS[String(questionOf(request))] }),
        code: (request, res) => {
          if (questionOf(request) !== 2) return code(request, res);
          const migration = idOf(request, 'Data migration')!;
          const setup = idOf(request, 'Slow setup')!;
          reply(res, { codes: answerLines(request).map((l) => ({ answer: l.id, themes: /import/i.test(l.text) ? [migration] : /setting/i.test(l.text) ? [setup] : [] })), quotes: [] });
        },
      });
      const result = await analyze({}, { ...INPUT, options: { maxThemes: 12, codebook } });
      const proposal = requests.find((r) => kindOf(r) === 'propose_themes' && questionOf(r) === 2)!;
      expect(userOf(proposal)).toContain("The research team's codebook already has these themes");
      expect(userOf(proposal)).toContain('Propose at most 10 new themes');
      // The model's "pricing" repeats a codebook label: not a new theme.
      const coding = requests.find((r) => kindOf(r) === 'code_answers' && questionOf(r) === 2)!;
      expect(themeLines(coding).map((t) => t.theme)).toEqual(['Data migration', 'Pricing', 'Slow setup']);
      expect(themeLines(coding)[0].examples).toEqual(['The import kept failing.', `${'x'.repeat(200)}…`]);
      expect(result.questions[1].themes.map((t) => [t.themeID, t.theme, t.description, t.answers, t.emerging])).toEqual([
        ['q1-c1', 'Data migration', 'Moving old notes in.', 2, false],
        ['q1-c2', 'Pricing', '', 0, false],
        ['q1-t1', 'Slow setup', 'Setting up took long.', 1, true],
      ]);
      expect(codesOf(result, [5, 6, 7, 8])).toEqual([['q1-c1'], ['q1-t1'], [], ['q1-c1']]);
      // A question without a codebook is coded as ever, nothing emerging.
      expect(result.questions[0].themes.every((t) => !t.emerging && t.themeID.startsWith('q0-t'))).toBe(true);
    });

    it('with a codebook that fills maxThemes, asks for no new theme', async () => {
      const codebook = [{ questionIndex: 0, themes: [{ theme: 'A', description: null, examples: [] }, { theme: 'B', description: null, examples: [] }] }];
      await analyze({}, { ...INPUT, options: { maxThemes: 2, codebook } });
      expect(requests.filter((r) => questionOf(r) === 1).map(kindOf)).toEqual(['code_answers']);
    });

    it('keeps the codebook and notes it when the proposal of new themes fails', async () => {
      const codebook = [{ questionIndex: 0, themes: [{ theme: 'Free plan', description: 'Free.', examples: [] }] }];
      respond = model({ propose: forQuestion(1, (_request, res) => send(res, 'nope', 503), propose) });
      const result = await analyze({}, { ...INPUT, options: { maxThemes: 12, codebook } });
      expect(result.questions[0].themes.map((t) => [t.themeID, t.theme, t.answers])).toEqual([['q0-c1', 'Free plan', 3]]);
      expect(result.notes).toContain('No new themes were looked for beside the codebook\'s in question 1 ("What made you sign up?"): the model server answered HTTP 503.');
    });
  });

  describe('falls back to the offline analysis for what the model fails, and says so', () => {
    it("a batch that fails keeps the offline codes of its answers, their offline themes joining the model's", async () => {
      const many = Array.from({ length: 40 }, (_, i) => answer(`lnk-${i}`, 1, 0, `Answer number ${'word '.repeat(30)}${i} recommended by a friend.`, 0.1));
      let coding = 0;
      respond = model({ code: (request, res) => (++coding === 2 ? send(res, completion('{"codes": [')) : code(request, res)) });
      const result = await analyze({ contextTokens: 2048 }, { ...INPUT, answers: many });
      const batches = requests.filter((r) => kindOf(r) === 'code_answers').map((r) => answerLines(r).map((l) => Number(l.id.slice(1)) - 1));
      expect(batches.length).toBeGreaterThan(2);
      const missed = batches[1];
      expect(result.notes).toContain(
        `${missed.length} of the 40 answers to question 1 ("What made you sign up?") could not be coded by the model (the model's answer was not valid JSON): they carry the offline analysis' codes.`,
      );
      expect(result.questions[0].themes.map((t) => [t.themeID, t.theme, t.answers])).toEqual([
        ['q0-t1', 'Recommended by others', 40 - missed.length],
        ['q0-t2', 'free', missed.length],
      ]);
      result.codes.forEach((c, doc) => expect(c.themeIDs).toEqual(missed.includes(doc) ? ['q0-t2'] : ['q0-t1']));
      // The offline theme brings its quote only when it cites one of the answers it now holds.
      expect(result.questions[0].themes[1].quotes.every((q) => missed.some((doc) => many[doc].linkID === q.linkID))).toBe(true);
    });

    it('malformed JSON for every batch of a question: its themes and codes are the offline ones, the others the model\'s', async () => {
      respond = model({ code: forQuestion(2, (_request, res) => send(res, completion('{"codes": [ {"answer": "a6", ')), code) });
      const result = await analyze();
      expect(result.questions[1].themes.map((t) => [t.themeID, t.theme, t.answers])).toEqual([['q1-t1', 'import', 2]]);
      expect(codesOf(result, [5, 6, 7, 8])).toEqual([['q1-t1'], [], [], ['q1-t1']]);
      expect(result.notes).toContain(`${NOTE_Q2} the model's answer was not valid JSON.`);
      expect(result.notes).toContain('Themes across the interview leave out question 2, whose themes are the offline analysis.');
      expect(result.questions[0].themes[0].theme).toBe('Free plan');
      // The log says which part and why, never the answer.
      expect(JSON.stringify(logs)).toContain('question 2');
      expect(JSON.stringify(logs)).not.toContain('a6');
    });

    it('an answer that is not of the schema fails like one that is not JSON', async () => {
      respond = model({ code: forQuestion(2, (_request, res) => reply(res, { codes: [{ answer: 6, themes: 'T1' }], quotes: [] }), code) });
      const result = await analyze();
      expect(result.notes).toContain(`${NOTE_Q2} the model's answer did not match the requested JSON schema.`);
    });

    it('a proposal that fails, or proposes nothing: the question is the offline analysis', async () => {
      respond = model({ propose: forQuestion(2, (_request, res) => reply(res, { themes: [] }), propose) });
      expect((await analyze()).notes).toContain(`${NOTE_Q2} the model proposed no theme.`);
      respond = model({ propose: forQuestion(2, (_request, res) => send(res, '{}', 500), propose) });
      expect((await analyze()).notes).toContain(`${NOTE_Q2} the model server answered HTTP 500.`);
    });

    it('a server that answers HTTP 500 to everything: the offline analysis, a note per part, its codes', async () => {
      respond = (_request, res) => send(res, '{"error": "overloaded"}', 500);
      const result = await analyze();
      expect(requests.map(kindOf)).toEqual(['propose_themes', 'propose_themes', 'propose_themes']);
      const expected = offlineResult();
      expect(result.codes).toEqual(expected.codes);
      expect(result.themes.map((t) => [t.themeID, t.answers, t.mentions])).toEqual([['all-t1', 4, 11]]);
      expect(result.questions.map((q) => q.themes.map((t) => [t.themeID, t.answers]))).toEqual([[['q0-t1', 3]], [['q1-t1', 2]], []]);
      expect(result.notes).toEqual([
        'An offline note.',
        'Themes of question 1 ("What made you sign up?") are the offline analysis: the model server answered HTTP 500.',
        `${NOTE_Q2} the model server answered HTTP 500.`,
        'Themes of the unattributed answers are the offline analysis: the model server answered HTTP 500.',
        "Themes across the interview are the offline analysis: the model coded no question's themes.",
      ]);
    });

    it('a server that never answers, after timeoutMs for each request', async () => {
      respond = model({ propose: forQuestion(2, () => undefined, propose) });
      const started = Date.now();
      const result = await analyze({ timeoutMs: 300 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(result.notes).toContain(`${NOTE_Q2} the model server gave no answer within 300 ms.`);
    });

    it('a server that is not there', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const result = await analyze({ baseUrl: `http://127.0.0.1:${port}/v1` });
      expect(result.notes).toContain(`${NOTE_Q2} the model server could not be reached (ECONNREFUSED).`);
      expect(result.codes).toEqual(offlineResult().codes);
    });

    it('the part across the interview: its themes and across codes are the offline ones', async () => {
      respond = model({ across: (_request, res) => send(res, '{}', 502) });
      const result = await analyze();
      expect(result.themes.map((t) => t.themeID)).toEqual(['all-t1']);
      expect(result.codes.every((c) => c.acrossThemeIDs.join() === 'all-t1')).toBe(true);
      expect(result.notes).toContain('Themes across the interview are the offline analysis: the model server answered HTTP 502.');
    });
  });

  describe('themes across the interview', () => {
    it('an answer is in an across theme when it is coded with one of its question themes; counted by the server', async () => {
      respond = model({
        across: (request, res) => {
          const lines = questionThemeLines(request);
          const id = (label: string) => lines.find((l) => l.theme === label)!.id;
          reply(res, {
            themes: [
              { theme: 'Getting started 2 fast', description: 'Starting was easy for 3 people.', questionThemes: [id('Free plan'), id('No trouble')], quotes: [] },
              { theme: 'Friction', description: 'Things in the way.', questionThemes: [id('Import problems'), id('Slow setup'), 't99'], quotes: [] },
              { theme: 'Nothing', description: 'No theme named.', questionThemes: ['t99'], quotes: [] },
            ],
          });
        },
      });
      const result = await analyze();
      expect(result.themes.map((t) => [t.themeID, t.theme, t.description, t.answers, t.mentions])).toEqual([
        ['all-t1', 'Getting started fast', 'Starting was easy for people.', 4, 4],
        ['all-t2', 'Friction', 'Things in the way.', 3, 3],
      ]);
      expect(result.codes.map((c) => c.acrossThemeIDs)).toEqual([[], ['all-t1'], [], ['all-t1'], ['all-t1'], ['all-t2'], ['all-t2'], ['all-t1'], ['all-t2'], [], []]);
    });

    it('checks the quotes across the interview too', async () => {
      respond = model({
        across: (request, res) =>
          reply(res, {
            themes: [
              {
                theme: 'All',
                description: 'All.',
                questionThemes: questionThemeLines(request).map((l) => l.id),
                quotes: [
                  { answer: 'a1', text: 'A colleague recommended it' },
                  { answer: 'a1', text: 'A colleague suggested it' },
                ],
              },
            ],
          }),
      });
      const result = await analyze();
      expect(result.themes[0].quotes).toEqual([{ linkID: LINK.ana, turnIndex: 1, text: 'A colleague recommended it', translation: null }]);
      expect(result.droppedQuotes).toBe(1);
    });
  });

  describe('batching within the context', () => {
    const many = Array.from({ length: 40 }, (_, i) => answer(`lnk-${i}`, 1, 0, `Answer number ${'word '.repeat(30)}${i} recommended by a friend.`, 0.1));

    it('codes a question in as many requests as its answers need, every answer once, with the same themes', async () => {
      const result = await analyze({ contextTokens: 2048 }, { ...INPUT, answers: many });
      const batches = requests.filter((r) => kindOf(r) === 'code_answers');
      expect(batches.length).toBeGreaterThan(2);
      expect(batches.flatMap((r) => answerLines(r).map((l) => l.id))).toEqual(many.map((_, i) => `a${i + 1}`));
      for (const request of batches) expect(themeLines(request).map((t) => t.theme)).toEqual(['Recommended by others', 'Free plan']);
      expect(result.codes.every((c) => c.themeIDs.join() === 'q0-t1')).toBe(true);
      expect(result.questions[0].themes[0].answers).toBe(40);
    });

    it('proposes from a sample spread over the answers when they do not all fit', async () => {
      await analyze({ contextTokens: 2048 }, { ...INPUT, answers: many });
      const proposal = requests.find((r) => kindOf(r) === 'propose_themes')!;
      const ids = answerLines(proposal).map((l) => Number(l.id.slice(1)));
      expect(ids.length).toBeLessThan(40);
      expect(ids.at(-1)!).toBeGreaterThan(20);
      expect(userOf(proposal)).toContain('a sample spread over all of them');
    });

    it('cuts an answer that alone is over the room, in the prompt only', async () => {
      const long = [answer(LINK.ana, 1, 0, `It was recommended ${'very '.repeat(3000)}warmly.`, 0.5), ...ANSWERS.slice(1)];
      const result = await analyze({ contextTokens: 2048 }, { ...INPUT, answers: long });
      const line = answerLines(requests.find((r) => kindOf(r) === 'code_answers')!)[0];
      expect(line).toMatchObject({ id: 'a1', cut: true });
      expect(line.text.length).toBeLessThan(long[0].answer.length);
      expect(result.codes[0].themeIDs).toEqual(['q0-t2']);
      expect(result.questions[0].themes[1].theme).toBe('Recommended by others');
    });

    it("falls back without asking when the question alone does not fit the model's context", async () => {
      const result = await analyze({ contextTokens: 600 });
      expect(requests).toEqual([]);
      expect(result.notes).toContain(`${NOTE_Q2} its prompt does not fit in the model's context (contextTokens).`);
    });
  });

  describe('the run', () => {
    it('reports progress up to its total', async () => {
      const seen: [number, number][] = [];
      await analyze({}, INPUT, { onProgress: (done, total) => seen.push([done, total]) });
      expect(seen[seen.length - 1]).toEqual([34, 34]);
      expect(seen.every(([, total]) => total === 34)).toBe(true);
      expect(seen.every(([done], i) => i === 0 || done >= seen[i - 1][0])).toBe(true);
    });

    it('stops when its signal aborts, with the request under way', async () => {
      const controller = new AbortController();
      respond = () => controller.abort(new Error('the claim was lost'));
      await expect(analyze({}, INPUT, { signal: controller.signal })).rejects.toThrow('the claim was lost');
      expect(requests).toHaveLength(1);
    });

    it('gives way to the event loop as it goes', async () => {
      const yielder = new Yielder(0);
      await analyze({}, INPUT, { yielder });
      expect(yielder.yields).toBeGreaterThan(0);
    });

    it('makes no request when there is no answer', async () => {
      const result = await analyze({}, { ...INPUT, answers: [] });
      expect(requests).toEqual([]);
      expect(result.codes).toEqual([]);
    });
  });

  describe("answers in other languages than the report's", () => {
    const JAPANESE = '大きなファイルのインポートが何度も止まりました。';
    const input: AnalysisInput = { ...INPUT, answers: [...ANSWERS.slice(0, 8), answer(LINK.dev, 3, 1, JAPANESE, null, 'ja'), ...ANSWERS.slice(8)] };

    it('translates them first, in batches of their own, then lists each with its translation for coding', async () => {
      await analyze({}, input);
      expect(translationRequests).toHaveLength(1);
      const [system, user] = translationRequests[0].body.messages.map((m) => m.content);
      expect(system).toMatch(/^You translate the open-ended answers of a user-research interview into English/);
      expect(answerLines(translationRequests[0])).toEqual([
        { id: 'a9', text: JAPANESE },
        { id: 'a10', text: ANSWERS[8].answer },
      ]);
      expect(user).not.toContain(ANSWERS[0].answer);
      const coding = requests.find((r) => kindOf(r) === 'code_answers' && questionOf(r) === 2)!;
      expect(answerLines(coding).filter((l) => 'translation' in l)).toEqual([
        { id: 'a9', text: JAPANESE, translation: `(en) ${JAPANESE}` },
        { id: 'a10', text: ANSWERS[8].answer, translation: `(en) ${ANSWERS[8].answer}` },
      ]);
    });

    it("keeps each quote's verbatim original with the model's translation beside it; none for an answer in the report's language", async () => {
      respond = model({
        code: (request, res) =>
          reply(res, {
            codes: answerLines(request).map((l) => ({ answer: l.id, themes: ['T1'] })),
            quotes: answerLines(request).flatMap((l) =>
              l.id === 'a9'
                ? [{ theme: 'T1', answer: l.id, text: '大きなファイルのインポートが', translation: 'The import of large files' }]
                : l.id === 'a6'
                  ? [{ theme: 'T1', answer: l.id, text: 'The import from our old tool', translation: 'should not be kept' }]
                  : [],
            ),
          }),
      });
      const result = await analyze({}, input);
      expect(result.questions[1].themes[0].quotes).toEqual([
        { linkID: LINK.ana, turnIndex: 5, text: 'The import from our old tool', translation: null },
        { linkID: LINK.dev, turnIndex: 3, text: '大きなファイルのインポートが', translation: 'The import of large files' },
      ]);
    });

    it('drops a quote the model copied from the translation rather than the original', async () => {
      respond = model({
        code: (request, res) =>
          reply(res, {
            codes: answerLines(request).map((l) => ({ answer: l.id, themes: ['T1'] })),
            quotes: answerLines(request).flatMap((l) => (l.id === 'a9' ? [{ theme: 'T1', answer: l.id, text: `(en) ${JAPANESE}`, translation: null }] : [])),
          }),
      });
      const result = await analyze({}, input);
      expect(result.questions[1].themes[0].quotes).toEqual([]);
      expect(result.droppedQuotes).toBe(1);
    });

    it('a model that will not translate: the answers are coded as written, and a note says so', async () => {
      translator = (_request, res) => send(res, JSON.stringify({ error: { message: 'refused' } }), 500);
      const result = await analyze({}, input);
      expect(translationRequests).toHaveLength(1);
      expect(result.notes).toContain('2 of the 2 answers in other languages than en could not be translated (the model server answered HTTP 500): the model coded them as written.');
      const coding = requests.find((r) => kindOf(r) === 'code_answers' && questionOf(r) === 2)!;
      expect(answerLines(coding).filter((l) => 'translation' in l)).toEqual([]);
      // Still coded by the model, counted by the server.
      expect(result.questions[1].themes.map((t) => t.theme)).toContain('Import problems');
    });
  });
});
