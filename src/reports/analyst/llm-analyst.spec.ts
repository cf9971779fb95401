import { Logger, LoggerService } from '@nestjs/common';
import { IncomingHttpHeaders, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countWords } from '../../interviewers/default-interviewer';
import { OpenAiAgentConfig, Secret } from '../../interviewers/interviewers.config';
import type { AnalysisAnswer, AnalysisQuestion, AnalysisResult, Theme } from '../analysis/analysis.types';
import { analyzeOffline } from '../analysis/offline-analysis';
import { Yielder } from '../analysis/yielder';
import type { AnalysisInput } from './analyst';
import { LlmAnalyst } from './llm-analyst';

/**
 * The analyst against a real HTTP server speaking the chat-completions protocol on a free local port:
 * it records every request and answers as each test tells it to, reading the answer ids out of the
 * prompt as a model would.
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

/** A theme the model coded, as the analyst reports it: numbered in order, mentions counted from its members, no keyphrases or language. */
const modelTheme = (themeID: string, mentions: number, theme: Pick<Theme, 'theme' | 'description' | 'answers' | 'quotes'>): Theme => ({
  themeID,
  keyphrases: [],
  mentions,
  emerging: false,
  language: null,
  ...theme,
});

const API_KEY = 'sk-test-9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a40';
/** Recognisable linkIDs: none may reach a prompt. */
const LINK = { ana: 'lnk-ANA-41c9e2f0a7d35b86', ben: 'lnk-BEN-93d1b6c4e2f07a15', cleo: 'lnk-CLEO-5a7f0d3b18c9e264', dev: 'lnk-DEV-c2e8a4f6910b3d57' };
/** Who the invites are for: the analyst is never given them, and no prompt may hold them. */
const INTERVIEWEES = ['Ana López', 'ana.lopez@example.com', 'Ben Okafor', 'ben@example.org'];

function answer(linkID: string, turnIndex: number, questionIndex: number | null, text: string, sentiment: number | null, followUp = false): AnalysisAnswer {
  return { linkID, turnIndex, questionIndex, answer: text, words: countWords(text), sentiment, language: 'en', followUp };
}

const QUESTIONS: AnalysisQuestion[] = [
  { questionIndex: 0, question: 'What made you sign up?' },
  { questionIndex: 1, question: 'What almost made you give up?' },
];

const ANSWERS: AnalysisAnswer[] = [
  /* 0 */ answer(LINK.ana, 1, 0, 'A colleague recommended it for our sprint planning.', 0.3),
  /* 1 */ answer(LINK.ben, 1, 0, 'The free plan was generous enough to try it with the whole team.', 0.6),
  /* 2 */ answer(LINK.cleo, 1, 0, 'My manager asked us to move our meeting notes into it.', 0),
  /* 3 */ answer(LINK.ana, 3, 0, 'Also the price was lower than what we paid before.', 0.1, true),
  /* 4 */ answer(LINK.dev, 1, 0, 'A friend uses it daily and the free trial convinced me.', 0.5),
  /* 5 */ answer(LINK.ana, 5, 1, 'The import from our old tool failed twice and I nearly quit.', -0.6),
  /* 6 */ answer(LINK.ben, 3, 1, 'Setting up the workspace took far too long for a small team.', -0.3),
  /* 7 */ answer(LINK.cleo, 3, 1, 'Nothing really, it worked from day one.', 0.2),
  /* 8 */ answer(LINK.dev, 3, 1, 'The import kept timing out on large files, which was painful!', -0.7),
  /* 9 */ answer(LINK.ben, 5, null, 'Please add a dark mode, my eyes would thank you.', 0.4),
  // A question the interview does not list: reported with the unattributed answers.
  /* 10 */ answer(LINK.dev, 5, 7, 'Offline mode on the train would be great.', 0.6),
];

const CONTEXT: AnalysisInput['context'] = { productName: 'Acme Notes', productDesc: 'A note-taking app for teams.', interviewName: 'Onboarding friction, Q4' };
const OPTIONS: AnalysisInput['options'] = { maxThemes: 12, codebook: [] };
const INPUT: AnalysisInput = { questions: QUESTIONS, answers: ANSWERS, context: CONTEXT, options: OPTIONS };

/** A chat completion whose message content is `content`. */
function completion(content: string | null, extra: Record<string, unknown> = {}, finishReason = 'stop'): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1763800000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: finishReason }],
  });
}

const send = (res: ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(body);
};
const reply = (res: ServerResponse, value: unknown) => send(res, completion(JSON.stringify(value)));

const kindOf = (request: Recorded) => request.body.response_format.json_schema.name;
const userOf = (request: Recorded) => request.body.messages.find((m) => m.role === 'user')?.content ?? '';
/** The answers a request lists, as the model reads them. */
const answerLines = (request: Recorded): { id: string; text: string; cut?: boolean }[] =>
  userOf(request)
    .split('\n')
    .filter((line) => line.startsWith('{"id":"a'))
    .map((line) => JSON.parse(line));
/** The question themes the interview-wide request lists. */
const themeLines = (request: Recorded): { id: string; question: number | null; theme: string; interviewees: number; quotes?: { answer: string; text: string }[] }[] =>
  userOf(request)
    .split('\n')
    .filter((line) => line.startsWith('{"id":"t'))
    .map((line) => JSON.parse(line));
/** 1-based, as the prompt numbers it; null for the unattributed answers. */
const questionOf = (request: Recorded): number | null => {
  const match = /\(question (\d+) of the interview\)/.exec(userOf(request));
  return match ? Number(match[1]) : null;
};
/** The id the prompt gives the answer of text `text` (the stand-in answers by id, as a model must). */
function idFor(request: Recorded, text: string): string {
  const line = answerLines(request).find((l) => l.text === text);
  if (!line) throw new Error(`no answer ${text} in the request`);
  return line.id;
}
const themeId = (request: Recorded, label: string): string => {
  const line = themeLines(request).find((l) => l.theme === label);
  if (!line) throw new Error(`no theme ${label} in the request`);
  return line.id;
};

/** A model that puts every answer of a request in one theme, quoting the first three words of the first. */
const codeAll: Responder = (request, res) => {
  const lines = answerLines(request);
  const first = lines[0];
  reply(res, {
    themes: [
      {
        theme: `Everything ${questionOf(request) ?? 'else'}`,
        description: 'All the answers.',
        members: lines.map((l) => l.id),
        quotes: [{ answer: first.id, text: first.text.split(' ').slice(0, 3).join(' ') }],
      },
    ],
  });
};
/** A model that brings every question theme together in one theme across the interview. */
const acrossAll: Responder = (request, res) =>
  reply(res, { themes: [{ theme: 'All of it', description: 'Everything said.', questionThemes: themeLines(request).map((l) => l.id), quotes: [] }] });
const byKind =
  (question: Responder, across: Responder = acrossAll): Responder =>
  (request, res) =>
    (kindOf(request) === 'question_themes' ? question : across)(request, res);
/** `special` for question n (1-based; null: the unattributed answers), codeAll for the others. */
const forQuestion =
  (n: number | null, special: Responder): Responder =>
  (request, res) =>
    (questionOf(request) === n ? special : codeAll)(request, res);

describe(LlmAnalyst.name, () => {
  let server: Server;
  let baseUrl: string;
  let requests: Recorded[];
  let respond: Responder;
  let logs: { message: unknown; context: unknown }[];
  let offline: AnalysisResult;

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
  const analyze = (overrides: Partial<OpenAiAgentConfig> = {}, input: AnalysisInput = INPUT, run: Partial<Parameters<LlmAnalyst['analyze']>[1]> = {}) =>
    new LlmAnalyst('llm-test', config(overrides)).analyze(input, { yielder: new Yielder(), ...run });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const request: Recorded = { url: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) };
        requests.push(request);
        respond(request, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const capture = (message: unknown, context?: unknown) => void logs.push({ message, context });
    const logger: LoggerService = { log: capture, warn: capture, error: capture, debug: capture, verbose: capture, fatal: capture };
    Logger.overrideLogger(logger);
    offline = await analyzeOffline({ questions: QUESTIONS, answers: ANSWERS });
  });

  beforeEach(() => {
    requests = [];
    logs = [];
    respond = byKind(codeAll);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  describe('the requests', () => {
    it('asks for each question with answers, then across the interview, one JSON schema each, one request at a time', async () => {
      let open = 0;
      let most = 0;
      respond = (request, res) => {
        most = Math.max(most, ++open);
        setTimeout(() => {
          open--;
          byKind(codeAll)(request, res);
        }, 20);
      };
      await analyze();
      expect(requests.map((r) => [r.url, r.body.model, kindOf(r), questionOf(r)])).toEqual([
        ['/v1/chat/completions', 'test-model', 'question_themes', 1],
        ['/v1/chat/completions', 'test-model', 'question_themes', 2],
        ['/v1/chat/completions', 'test-model', 'question_themes', null],
        ['/v1/chat/completions', 'test-model', 'interview_themes', null],
      ]);
      expect(most).toBe(1);
      for (const request of requests) {
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
        expect(request.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
      }
    });

    it('sends a strict schema: every property required, no other allowed', async () => {
      await analyze();
      const themes = requests[0].body.response_format.json_schema.schema;
      expect(themes).toMatchObject({ type: 'object', required: ['themes'], additionalProperties: false });
      const item = (themes as { properties: { themes: { items: Record<string, unknown> } } }).properties.themes.items;
      expect(item).toMatchObject({ type: 'object', required: ['theme', 'description', 'members', 'quotes'], additionalProperties: false });
      const across = requests[3].body.response_format.json_schema.schema as { properties: { themes: { items: Record<string, unknown> } } };
      expect(across.properties.themes.items).toMatchObject({ required: ['theme', 'description', 'questionThemes', 'quotes'], additionalProperties: false });
    });

    it('says the job and the context in the system prompt, and lists the question and its answers under ids', async () => {
      await analyze();
      const [system, user] = requests[1].body.messages.map((m) => m.content);
      expect(system).toMatch(/^You are a qualitative researcher coding the open-ended answers/);
      expect(system).toContain('The interview "Onboarding friction, Q4" is about the product "Acme Notes".');
      expect(system).toContain('About the product: A note-taking app for teams.');
      expect(system).toMatch(/at most 6 themes/);
      expect(system).toMatch(/copied character for character/);
      expect(system).toMatch(/Use only the ids listed/);
      expect(user).toContain('The question (question 2 of the interview): "What almost made you give up?"');
      expect(answerLines(requests[1])).toEqual([
        { id: 'a6', text: ANSWERS[5].answer },
        { id: 'a7', text: ANSWERS[6].answer },
        { id: 'a8', text: ANSWERS[7].answer },
        { id: 'a9', text: ANSWERS[8].answer },
      ]);
      // The answers of no listed question: the closing one, and the one naming a question the interview does not have.
      expect(answerLines(requests[2]).map((l) => l.text)).toEqual([ANSWERS[9].answer, ANSWERS[10].answer]);
    });

    it('never sends a linkID, an interviewee\'s name or email address, or the key in a prompt', async () => {
      await analyze();
      expect(requests).toHaveLength(4);
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
      expect(requests).toHaveLength(4);
      expect(requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined, undefined, undefined]);
    });
  });

  describe("the model's themes", () => {
    /** A model that codes well, but states counts of its own. */
    const goodModel: Responder = byKind(
      (request, res) => {
        const id = (doc: number) => idFor(request, ANSWERS[doc].answer);
        const question = questionOf(request);
        if (question === 1) {
          return reply(res, {
            themes: [
              { theme: 'Word of mouth', description: 'Someone they trust uses it.', members: [id(0), id(4)], quotes: [{ answer: id(0), text: 'A colleague recommended it' }], answers: 17 },
              {
                theme: 'Cost',
                description: 'The price or the free plan made it easy to start.',
                members: [id(1), id(3), id(4)],
                quotes: [
                  { answer: id(1), text: 'The free plan was generous' },
                  { answer: id(3), text: 'the price was lower than what we paid before.' },
                ],
                answers: 1,
              },
              { theme: 'Team decision', description: 'The team chose it.', members: [id(0), id(2), id(3)], quotes: [{ answer: id(2), text: 'My manager asked us' }], count: 9 },
            ],
          });
        }
        if (question === 2) {
          return reply(res, {
            themes: [
              { theme: 'Import failures', description: 'Importing old notes failed.', members: [id(5), id(8)], quotes: [{ answer: id(5), text: 'The import from our old tool failed twice' }] },
              { theme: 'Slow setup', description: 'Setting up took too long.', members: [id(6)], quotes: [] },
            ],
          });
        }
        reply(res, { themes: [{ theme: 'Feature requests', description: 'Things to add.', members: [id(9), id(10)], quotes: [{ answer: id(10), text: 'Offline mode on the train' }] }] });
      },
      (request, res) =>
        reply(res, {
          themes: [
            {
              theme: 'Getting started',
              description: 'Starting with the product, for better or worse.',
              questionThemes: [themeId(request, 'Import failures'), themeId(request, 'Slow setup'), themeId(request, 'Team decision')],
              // The interview-wide request lists no answers: a9 is the id the question requests gave answer 8.
              quotes: [{ answer: 'a9', text: 'The import kept timing out on large files' }],
              answers: 2,
            },
            { theme: 'Money', description: 'What it costs.', questionThemes: [themeId(request, 'Cost')], quotes: [] },
          ],
        }),
    );

    it('maps members to answers, counts interviewees itself (not as the model states) and keeps verbatim quotes', async () => {
      respond = goodModel;
      const result = await analyze();
      expect(result.questions.map((q) => q.themes)).toEqual([
        [
          // ben, ana (a follow-up), dev.
          modelTheme('t1', 3, {
            theme: 'Cost',
            description: 'The price or the free plan made it easy to start.',
            answers: 3,
            quotes: [
              { linkID: LINK.ben, turnIndex: 1, text: 'The free plan was generous' },
              { linkID: LINK.ana, turnIndex: 3, text: 'the price was lower than what we paid before.' },
            ],
          }),
          modelTheme('t2', 2, { theme: 'Word of mouth', description: 'Someone they trust uses it.', answers: 2, quotes: [{ linkID: LINK.ana, turnIndex: 1, text: 'A colleague recommended it' }] }),
          // Two of its three answers are Ana's: 2 interviewees, 3 mentions.
          modelTheme('t3', 3, { theme: 'Team decision', description: 'The team chose it.', answers: 2, quotes: [{ linkID: LINK.cleo, turnIndex: 1, text: 'My manager asked us' }] }),
        ],
        [
          modelTheme('t1', 2, { theme: 'Import failures', description: 'Importing old notes failed.', answers: 2, quotes: [{ linkID: LINK.ana, turnIndex: 5, text: 'The import from our old tool failed twice' }] }),
          modelTheme('t2', 1, { theme: 'Slow setup', description: 'Setting up took too long.', answers: 1, quotes: [] }),
        ],
        [modelTheme('t1', 2, { theme: 'Feature requests', description: 'Things to add.', answers: 2, quotes: [{ linkID: LINK.dev, turnIndex: 5, text: 'Offline mode on the train' }] })],
      ]);
      expect(result.droppedQuotes).toBe(0);
      expect(result.notes).toEqual([
        // The offline analysis' own note, about the answer to question 8.
        'Answers to questions the interview does not list (7) are reported with the unattributed answers.',
      ]);
      expect(logs).toEqual([]);
    });

    it('keeps everything else of each question as the offline analysis made it', async () => {
      respond = goodModel;
      const result = await analyze();
      expect(result.questions.map(({ themes: _themes, ...rest }) => rest)).toEqual(offline.questions.map(({ themes: _themes, ...rest }) => rest));
      expect(result.questions.map((q) => [q.questionIndex, q.answered, q.medianWords])).toEqual([
        [0, 4, 11],
        [1, 4, 11.5],
        [null, 2, 9],
      ]);
    });

    it('builds the themes across the interview from the question themes: members their union, counted by the server', async () => {
      respond = goodModel;
      const result = await analyze();
      const across = requests[3];
      expect(themeLines(across)).toEqual([
        { id: 't1', question: 1, theme: 'Cost', description: 'The price or the free plan made it easy to start.', interviewees: 3, quotes: [{ answer: 'a2', text: 'The free plan was generous' }, { answer: 'a4', text: 'the price was lower than what we paid before.' }] },
        { id: 't2', question: 1, theme: 'Word of mouth', description: 'Someone they trust uses it.', interviewees: 2, quotes: [{ answer: 'a1', text: 'A colleague recommended it' }] },
        { id: 't3', question: 1, theme: 'Team decision', description: 'The team chose it.', interviewees: 2, quotes: [{ answer: 'a3', text: 'My manager asked us' }] },
        { id: 't4', question: 2, theme: 'Import failures', description: 'Importing old notes failed.', interviewees: 2, quotes: [{ answer: 'a6', text: 'The import from our old tool failed twice' }] },
        { id: 't5', question: 2, theme: 'Slow setup', description: 'Setting up took too long.', interviewees: 1, quotes: [] },
        { id: 't6', question: null, theme: 'Feature requests', description: 'Things to add.', interviewees: 2, quotes: [{ answer: 'a11', text: 'Offline mode on the train' }] },
      ]);
      expect(userOf(across)).toContain('1. What made you sign up?\n2. What almost made you give up?');
      expect(result.themes).toEqual([
        // Import failures (ana, dev), slow setup (ben), team decision (ana, cleo): all four.
        // Six answers: import failures 2, slow setup 1, team decision 3.
        modelTheme('t1', 6, { theme: 'Getting started', description: 'Starting with the product, for better or worse.', answers: 4, quotes: [{ linkID: LINK.dev, turnIndex: 3, text: 'The import kept timing out on large files' }] }),
        modelTheme('t2', 3, { theme: 'Money', description: 'What it costs.', answers: 3, quotes: [] }),
      ]);
    });

    it('drops paraphrased quotes, and quotes of answers outside the theme, and counts them', async () => {
      respond = byKind(
        forQuestion(1, (request, res) => {
          const id = (doc: number) => idFor(request, ANSWERS[doc].answer);
          reply(res, {
            themes: [
              {
                theme: 'Cost',
                description: 'Price.',
                members: [id(1), id(3), id(4)],
                quotes: [
                  { answer: id(1), text: 'the free plan was generous' }, // case changed
                  { answer: id(3), text: 'Also, the price was lower' }, // punctuation added
                  { answer: id(4), text: 'A friend uses it every day' }, // not what was said
                  { answer: id(4), text: 'free trial' }, // under three words
                  { answer: id(1), text: 'The free plan was generous…' }, // an ellipsis added
                  { answer: id(0), text: 'A colleague recommended it' }, // verbatim, but answer 0 is not in the theme
                  { answer: 'a999', text: 'A colleague recommended it' }, // no such answer
                  { answer: 'a6', text: 'The import from our old tool' }, // verbatim, but an answer of another question
                  { answer: id(1), text: 'The free plan was generous' }, // verbatim: kept
                  { answer: id(1), text: 'The free plan was generous' }, // the same again: left out, not counted
                ],
              },
              { theme: 'Empty', description: 'No answer of this request.', members: ['a6', 'a999', 'b1'], quotes: [{ answer: 'a6', text: 'not checked at all' }] },
            ],
          });
        }),
      );
      const result = await analyze();
      expect(result.questions[0].themes).toEqual([modelTheme('t1', 3, { theme: 'Cost', description: 'Price.', answers: 3, quotes: [{ linkID: LINK.ben, turnIndex: 1, text: 'The free plan was generous' }] })]);
      expect(result.droppedQuotes).toBe(8);
      expect(result.notes).toEqual(offline.notes);
    });

    it('keeps at most 3 quotes a theme, and cuts overlong labels and descriptions', async () => {
      respond = byKind(
        forQuestion(2, (request, res) => {
          const lines = answerLines(request);
          reply(res, {
            themes: [
              {
                theme: `  Problems\nwith ${'very '.repeat(30)}much`,
                description: 'd'.repeat(400),
                members: lines.map((l) => l.id),
                quotes: lines.map((l) => ({ answer: l.id, text: l.text.split(' ').slice(0, 4).join(' ') })),
              },
            ],
          });
        }),
      );
      const [theme] = (await analyze()).questions[1].themes;
      expect(theme.theme).toBe(`Problems with ${'very '.repeat(12)}very…`);
      expect(theme.description).toBe(`${'d'.repeat(299)}…`);
      expect(theme.quotes.map((q) => q.text)).toEqual(['The import from our', 'Setting up the workspace', 'Nothing really, it worked']);
    });

    it('caps a question at 6 themes, keeping the first the model gave', async () => {
      respond = byKind(
        forQuestion(1, (request, res) => {
          const ids = answerLines(request).map((l) => l.id);
          reply(res, { themes: Array.from({ length: 8 }, (_, k) => ({ theme: `Theme ${k}`, description: '.', members: [ids[k % ids.length]], quotes: [] })) });
        }),
      );
      expect((await analyze()).questions[0].themes.map((t) => t.theme)).toEqual(['Theme 0', 'Theme 1', 'Theme 2', 'Theme 3', 'Theme 4', 'Theme 5']);
    });
  });

  describe('falls back to the offline analysis for the part the model fails, and says so', () => {
    const NOTE_Q2 = 'Themes of question 2 ("What almost made you give up?") are the offline analysis:';

    it('malformed JSON for one question: its themes are the offline ones, the others the model\'s', async () => {
      respond = byKind(forQuestion(2, (_request, res) => send(res, completion('Sure! {"themes": [{"theme": "Import failures", "members": ["a6"'))));
      const result = await analyze();
      expect(offline.questions[1].themes.length).toBeGreaterThan(0);
      expect(result.questions[1]).toEqual(offline.questions[1]);
      expect(result.questions[0].themes).toEqual([modelTheme('t1', 5, { theme: 'Everything 1', description: 'All the answers.', answers: 4, quotes: [{ linkID: LINK.ana, turnIndex: 1, text: 'A colleague recommended' }] })]);
      expect(result.questions[2].themes.map((t) => t.theme)).toEqual(['Everything else']);
      expect(result.notes).toEqual([
        ...offline.notes,
        `${NOTE_Q2} the model's answer was not valid JSON.`,
        'Themes across the interview leave out question 2, whose themes are the offline analysis.',
      ]);
      // Built from the two questions the model coded.
      expect(themeLines(requests[3]).map((l) => l.theme)).toEqual(['Everything 1', 'Everything else']);
      // Question 1's five answers and the two unattributed ones.
      expect(result.themes).toEqual([modelTheme('t1', 7, { theme: 'All of it', description: 'Everything said.', answers: 4, quotes: [] })]);
      expect(JSON.stringify(result.notes)).not.toContain('Sure!');
      expect(logs).toEqual([
        {
          message: { msg: 'report part is the offline analysis', agent: 'llm-test', part: 'question 2', reason: "the model's answer was not valid JSON" },
          context: 'LlmAnalyst',
        },
      ]);
    });

    const neverAnswer: Responder = () => undefined;
    it.each<[string, Responder, string]>([
      ['JSON that is not the schema (ids as numbers)', (_r, res) => reply(res, { themes: [{ theme: 'A', description: 'B', members: [6, 9], quotes: [] }] }), "the model's answer did not match the requested JSON schema"],
      ['JSON without themes', (_r, res) => reply(res, { theme: 'A' }), "the model's answer did not match the requested JSON schema"],
      ['a quote that is not {answer, text}', (_r, res) => reply(res, { themes: [{ theme: 'A', description: 'B', members: ['a6'], quotes: ['The import from'] }] }), "the model's answer did not match the requested JSON schema"],
      ['no theme left with a member', (_r, res) => reply(res, { themes: [{ theme: 'A', description: 'B', members: ['a1', 'x'], quotes: [] }] }), 'none of the themes the model gave had a member among the answers it was given'],
      ['no theme at all', (_r, res) => reply(res, { themes: [] }), 'none of the themes the model gave had a member among the answers it was given'],
      ['a theme with a blank label', (_r, res) => reply(res, { themes: [{ theme: ' \n ', description: 'B', members: ['a6'], quotes: [] }] }), 'none of the themes the model gave had a member among the answers it was given'],
      ['HTTP 500', (_r, res) => send(res, '{"error": {"message": "internal"}}', 500), 'the model server answered HTTP 500'],
      ['HTTP 400 (a server that refuses the schema)', (_r, res) => send(res, '{"error": {"message": "bad schema"}}', 400), 'the model server answered HTTP 400'],
      ['a refusal', (_r, res) => send(res, completion(null, { refusal: 'I cannot help with that.' })), 'the model declined to answer'],
      ['an answer cut off at its length limit', (_r, res) => send(res, completion('{"themes": [{"theme": "A", "desc', {}, 'length')), "the model's answer was cut off at its length limit"],
      ['a response that is not a chat completion', (_r, res) => send(res, '<html>Bad gateway</html>'), "the model server's response was not a chat completion"],
      ['a response over the size bound', (_r, res) => reply(res, { themes: [], padding: 'y'.repeat(1024 * 1024) }), "the model server's response was over 1048576 bytes"],
      ['a redirect', (_r, res) => res.writeHead(302, { Location: 'http://example.com/' }).end(), 'the model server could not be reached'],
    ])('%s', async (_case, responder, reason) => {
      respond = byKind(forQuestion(2, responder));
      const result = await analyze();
      expect(result.questions[1]).toEqual(offline.questions[1]);
      expect(result.questions[0].themes.map((t) => t.theme)).toEqual(['Everything 1']);
      expect(result.notes).toEqual([...offline.notes, `${NOTE_Q2} ${reason}.`, 'Themes across the interview leave out question 2, whose themes are the offline analysis.']);
    });

    it('a server that answers HTTP 500 to everything: the offline analysis with a note per part, and the report completes', async () => {
      respond = (_request, res) => send(res, '{"error": "overloaded"}', 500);
      const result = await analyze();
      // No request across the interview: there is no question theme of the model's to build on.
      expect(requests.map(kindOf)).toEqual(['question_themes', 'question_themes', 'question_themes']);
      expect(result).toEqual({
        ...offline,
        notes: [
          ...offline.notes,
          'Themes of question 1 ("What made you sign up?") are the offline analysis: the model server answered HTTP 500.',
          `${NOTE_Q2} the model server answered HTTP 500.`,
          'Themes of the unattributed answers are the offline analysis: the model server answered HTTP 500.',
          "Themes across the interview are the offline analysis: the model coded no question's themes.",
        ],
      });
    });

    it('a server that never answers, after timeoutMs for each request', async () => {
      respond = byKind(forQuestion(2, neverAnswer));
      const started = Date.now();
      const result = await analyze({ timeoutMs: 300 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(result.questions[1]).toEqual(offline.questions[1]);
      expect(result.notes).toContain(`${NOTE_Q2} the model server gave no answer within 300 ms.`);
      expect(requests).toHaveLength(4);
    });

    it('a server that sends its headers and then stalls', async () => {
      respond = byKind(
        forQuestion(2, (_request, res) => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('{"choices": [');
        }),
      );
      const result = await analyze({ timeoutMs: 300 });
      expect(result.notes).toContain(`${NOTE_Q2} the model server gave no answer within 300 ms.`);
    });

    it('a server that is not there', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const result = await analyze({ baseUrl: `http://127.0.0.1:${port}/v1` });
      expect(result).toEqual({
        ...offline,
        notes: [
          ...offline.notes,
          'Themes of question 1 ("What made you sign up?") are the offline analysis: the model server could not be reached (ECONNREFUSED).',
          `${NOTE_Q2} the model server could not be reached (ECONNREFUSED).`,
          'Themes of the unattributed answers are the offline analysis: the model server could not be reached (ECONNREFUSED).',
          "Themes across the interview are the offline analysis: the model coded no question's themes.",
        ],
      });
    });

    it('the part across the interview: its themes are the offline ones', async () => {
      respond = byKind(codeAll, (_request, res) => send(res, completion('not json')));
      const result = await analyze();
      expect(result.themes).toEqual(offline.themes);
      expect(result.questions.map((q) => q.themes.map((t) => t.theme))).toEqual([['Everything 1'], ['Everything 2'], ['Everything else']]);
      expect(result.notes).toEqual([...offline.notes, "Themes across the interview are the offline analysis: the model's answer was not valid JSON."]);
    });

    it('the part across the interview, when none of its themes names a question theme given', async () => {
      respond = byKind(codeAll, (_request, res) => reply(res, { themes: [{ theme: 'X', description: 'Y', questionThemes: ['t99', 'a1'], quotes: [] }] }));
      const result = await analyze();
      expect(result.themes).toEqual(offline.themes);
      expect(result.notes).toEqual([...offline.notes, 'Themes across the interview are the offline analysis: none of the themes the model gave brought together a question theme it was given.']);
    });

    it('checks the quotes across the interview too', async () => {
      respond = byKind(codeAll, (request, res) =>
        reply(res, {
          themes: [
            {
              theme: 'Setup',
              description: 'Setup.',
              questionThemes: [themeId(request, 'Everything 2')],
              quotes: [
                { answer: 'a9', text: 'The import kept timing out' }, // verbatim, a member: kept
                { answer: 'a9', text: 'The import kept timing out!' }, // not verbatim
                { answer: 'a1', text: 'A colleague recommended it' }, // verbatim, not a member
              ],
            },
          ],
        }),
      );
      const result = await analyze();
      expect(result.themes).toEqual([modelTheme('t1', 4, { theme: 'Setup', description: 'Setup.', answers: 4, quotes: [{ linkID: LINK.dev, turnIndex: 3, text: 'The import kept timing out' }] })]);
      expect(result.droppedQuotes).toBe(2);
    });
  });

  describe('batching within the context', () => {
    // Long answers, each from its own invite: at 4,096 tokens of context a few fit in a request.
    const filler = 'we talked about it in the weekly meeting and everyone had something to say about how the notes are organised ';
    const text = (k: number) => `Answer ${k} says: ${filler.repeat(12)}and that is all.`;
    const LONG = `Answer 12 says: the longest answer of all begins here, ${filler.repeat(400)}and ends here.`;
    const batchAnswers = [...Array.from({ length: 12 }, (_, k) => answer(`lnk-BATCH-${k}`, 1, 0, text(k), 0.1)), answer('lnk-BATCH-12', 1, 0, LONG, 0.1)];
    const batchInput: AnalysisInput = { questions: [QUESTIONS[0]], answers: batchAnswers, context: CONTEXT, options: OPTIONS };
    const numberOf = (line: { text: string }) => Number(/^Answer (\d+) says/.exec(line.text)?.[1]);

    /** The first odd answer of a request, quoted by its first three words. */
    const oddQuote = (request: Recorded) => {
      const odd = answerLines(request).find((l) => numberOf(l) % 2 === 1);
      return odd ? [{ answer: odd.id, text: `Answer ${numberOf(odd)} says:` }] : [];
    };
    /**
     * Even answers are Alpha, odd ones Beta, each quoting the request's first odd answer (Alpha's quote
     * cites an answer outside it); the request with answer 12 also adds Gamma for it.
     */
    const batchModel: Responder = byKind((request, res) => {
      const lines = answerLines(request);
      const later = userOf(request).includes('The themes found so far');
      const last = lines[lines.length - 1];
      reply(res, {
        themes: [
          // A later request may write a known label in another case: it is the same theme.
          { theme: later ? 'alpha' : 'Alpha', description: later ? 'Changed.' : 'Even answers.', members: lines.filter((l) => numberOf(l) % 2 === 0).map((l) => l.id), quotes: oddQuote(request) },
          { theme: 'Beta', description: 'Odd answers.', members: lines.filter((l) => numberOf(l) % 2 === 1).map((l) => l.id), quotes: oddQuote(request) },
          ...(numberOf(last) === 12 ? [{ theme: 'Gamma', description: 'The long one.', members: [last.id], quotes: [{ answer: last.id, text: 'the longest answer of all begins here' }] }] : []),
        ],
      });
    });

    it('sends a question in several requests, the later ones with the codebook so far, and codes the answers of all', async () => {
      respond = batchModel;
      const result = await analyze({ contextTokens: 4096 }, batchInput);
      const questionRequests = requests.filter((r) => kindOf(r) === 'question_themes');
      expect(questionRequests.length).toBeGreaterThan(2);
      // Every answer in exactly one request, in order.
      expect(questionRequests.flatMap((r) => answerLines(r).map(numberOf))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(userOf(questionRequests[0])).not.toContain('The themes found so far');
      for (const later of questionRequests.slice(1)) {
        expect(userOf(later)).toContain('The themes found so far in the earlier answers:\n{"theme":"Alpha","description":"Even answers."}\n{"theme":"Beta","description":"Odd answers."}');
      }
      // Each request leaves the answer's room (1,024 tokens) in the context, by the analyst's estimate (characters ÷ 4).
      for (const request of questionRequests) expect(request.body.messages.map((m) => m.content).join('').length / 4).toBeLessThan(4096 - 1024);
      // Beta quotes the first odd answer of each request (up to 3); Alpha's quotes of odd answers are dropped.
      const odd = questionRequests.flatMap((r) => oddQuote(r).map((q) => q.text));
      expect(odd.length).toBeGreaterThan(1);
      expect(odd[0]).toBe('Answer 1 says:');
      expect(result.questions[0].themes).toEqual([
        modelTheme('t1', 7, { theme: 'Alpha', description: 'Even answers.', answers: 7, quotes: [] }),
        modelTheme('t2', 6, { theme: 'Beta', description: 'Odd answers.', answers: 6, quotes: odd.slice(0, 3).map((text) => ({ linkID: `lnk-BATCH-${/\d+/.exec(text)?.[0]}`, turnIndex: 1, text })) }),
        modelTheme('t3', 1, { theme: 'Gamma', description: 'The long one.', answers: 1, quotes: [{ linkID: 'lnk-BATCH-12', turnIndex: 1, text: 'the longest answer of all begins here' }] }),
      ]);
      expect(result.droppedQuotes).toBe(odd.length);
      expect(result.notes).toEqual([]);
    });

    it('cuts an answer that alone is over the room, in the prompt only', async () => {
      respond = batchModel;
      await analyze({ contextTokens: 4096 }, batchInput);
      const lines = requests.flatMap(answerLines);
      const long = lines.find((l) => numberOf(l) === 12);
      expect(long?.cut).toBe(true);
      expect(long && LONG.startsWith(long.text) && long.text.length < LONG.length && long.text.length > 2000).toBe(true);
      expect(lines.filter((l) => l.cut)).toHaveLength(1);
    });

    it('asks in one request when the answers fit', async () => {
      respond = batchModel;
      await analyze({ contextTokens: 200_000 }, batchInput);
      expect(requests.map(kindOf)).toEqual(['question_themes', 'interview_themes']);
      expect(answerLines(requests[0]).some((l) => l.cut)).toBe(false);
    });

    it('falls back for the whole question when a later request fails', async () => {
      let count = 0;
      respond = (request, res) => (kindOf(request) === 'question_themes' && ++count === 2 ? send(res, '{}', 503) : batchModel(request, res));
      const result = await analyze({ contextTokens: 4096 }, batchInput);
      const local = await analyzeOffline({ questions: batchInput.questions, answers: batchAnswers });
      expect(result.questions).toEqual(local.questions);
      expect(result.themes).toEqual(local.themes);
      expect(result.notes).toEqual([
        'Themes of question 1 ("What made you sign up?") are the offline analysis: the model server answered HTTP 503.',
        "Themes across the interview are the offline analysis: the model coded no question's themes.",
      ]);
      expect(result.droppedQuotes).toBe(0);
    });

    it('groups the question themes without their quotes when the quotes do not fit', async () => {
      respond = byKind((request, res) => {
        const lines = answerLines(request);
        const long = lines.find((l) => numberOf(l) === 12);
        reply(res, {
          themes: [
            { theme: 'Any', description: 'Any answer.', members: lines.map((l) => l.id), quotes: [] },
            // A verbatim quote of 12,000 characters (checked against the whole answer, not the part the prompt showed):
            // the question theme keeps it, the interview-wide request has no room for it.
            ...(long ? [{ theme: 'Long', description: 'The long one.', members: [long.id], quotes: [{ answer: long.id, text: LONG.slice(0, 12_000) }] }] : []),
          ],
        });
      });
      const result = await analyze({ contextTokens: 4096 }, batchInput);
      expect(result.questions[0].themes.map((t) => [t.theme, t.answers, t.quotes.length])).toEqual([
        ['Any', 13, 0],
        ['Long', 1, 1],
      ]);
      const across = requests[requests.length - 1];
      expect(kindOf(across)).toBe('interview_themes');
      expect(userOf(across)).toContain('There is no room for quotes in this request');
      expect(themeLines(across)).toEqual([
        { id: 't1', question: 1, theme: 'Any', description: 'Any answer.', interviewees: 13 },
        { id: 't2', question: 1, theme: 'Long', description: 'The long one.', interviewees: 1 },
      ]);
      expect(result.notes).toEqual([]);
    });

    it("falls back without asking when the question alone does not fit the model's context", async () => {
      const question = `What made you sign up? ${'Tell us everything. '.repeat(1000)}`;
      const result = await analyze({ contextTokens: 4096 }, { ...batchInput, questions: [{ questionIndex: 0, question }] });
      expect(requests).toEqual([]);
      expect(result.notes).toEqual([
        `Themes of question 1 ("What made you sign up? Tell us everything. Tell us everything. Tell us everythi…") are the offline analysis: its prompt does not fit in the model's context (contextTokens).`,
        "Themes across the interview are the offline analysis: the model coded no question's themes.",
      ]);
    });

    it('keeps a full codebook at 6 themes and tells the later requests so', async () => {
      respond = byKind((request, res) => {
        const lines = answerLines(request);
        const n = numberOf(lines[0]);
        reply(res, { themes: lines.map((l, k) => ({ theme: `Theme ${n}-${k}`, description: '.', members: [l.id], quotes: [] })) });
      });
      const result = await analyze({ contextTokens: 4096 }, batchInput);
      expect(result.questions[0].themes).toHaveLength(6);
      const full = requests.filter((r) => userOf(r).includes('There are 6 themes already, as many as allowed: add no new theme'));
      expect(full.length).toBeGreaterThan(0);
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
      const result = await analyze({}, { questions: QUESTIONS, answers: [], context: CONTEXT, options: OPTIONS });
      expect(requests).toEqual([]);
      expect(result).toEqual(await analyzeOffline({ questions: QUESTIONS, answers: [] }));
    });
  });
});
