import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A kind of answer the stand-in recognises: the labels a theme of it may carry, and what its answers say. */
export interface StandInGroup {
  /** The first is what the stand-in proposes; any of them, listed as a theme (a codebook's), is coded by `pattern`. */
  labels: string[];
  description: string;
  pattern: RegExp;
}

/** One request the stand-in was sent. */
export interface StandInRequest {
  kind: string;
  user: string;
  raw: string;
  /** The W3C trace context the request carried, if any. */
  traceparent?: string;
}

interface Line {
  id: string;
  text: string;
  theme?: string;
  /** The answer's translation into the report's language, when the analyst sends one. */
  translation?: string;
}

const CJK = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** How a stand-in translates answers (translate_answers): a dictionary, or a refusal as the OpenAI protocol writes one. */
export interface StandInTranslator {
  /** Answer text → its translation; an answer not in it is returned as it is. */
  dictionary?: Record<string, string>;
  /** Refuse every translation request (message.refusal, no content). */
  refuse?: boolean;
}

/**
 * An OpenAI-compatible chat-completions server in the test process, speaking the real protocol over
 * HTTP, that analyses like a model would from what the analyst sends it: it proposes a theme for each
 * group whose answers it sees, codes each answer by what it says (up to 3 themes, or none), quotes the
 * first words of a theme's longest answer, and brings every question theme into one theme across the
 * interview. It writes what `groups` say, digits and copied words included, so that a test can check
 * what the server does with them. While `gate` is set it answers nothing until it settles; `fail`
 * makes a request answer an HTTP error.
 */
export class StandInModel {
  readonly requests: StandInRequest[] = [];
  gate?: Promise<void>;
  fail?: (request: StandInRequest) => number | undefined;
  private server?: Server;

  constructor(
    public groups: StandInGroup[],
    /** When set, the stand-in translates (or refuses to), and quotes the longest answer of each language a theme holds. */
    public translator?: StandInTranslator,
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The agents' configuration naming this server. */
  agents(baseUrl: string, name = 'stand-in'): string {
    return JSON.stringify({ [name]: { kind: 'openai', baseUrl, model: 'stand-in-model', timeoutMs: 10_000 } });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: { content: string }[]; response_format: { json_schema: { name: string } } };
      const request: StandInRequest = { kind: body.response_format.json_schema.name, user: body.messages.at(-1)!.content, raw, traceparent: typeof req.headers.traceparent === 'string' ? req.headers.traceparent : undefined };
      this.requests.push(request);
      void (this.gate ?? Promise.resolve()).then(() => {
        const status = this.fail?.(request);
        if (status !== undefined) return res.writeHead(status, { 'Content-Type': 'application/json' }).end('{"error": "stand-in failure"}');
        if (request.kind === 'translate_answers' && this.translator?.refuse) {
          const refusal = { role: 'assistant', content: null, refusal: 'I cannot help with translating these answers.' };
          return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: refusal, finish_reason: 'stop' }] }));
        }
        const content = JSON.stringify(this.answer(request));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
      });
    });
  }

  private lines(user: string, prefix: string): Line[] {
    return user
      .split('\n')
      .filter((line) => line.startsWith(prefix))
      .map((line) => JSON.parse(line) as Line);
  }

  private answer(request: StandInRequest): unknown {
    const answers = this.lines(request.user, '{"id":"a');
    if (request.kind === 'translate_answers') {
      return { translations: answers.map((a) => ({ answer: a.id, text: this.translator?.dictionary?.[a.text] ?? a.text })) };
    }
    // A multilingual stand-in reads an answer by its translation, as a model would.
    const read = (a: Line) => (this.translator ? (a.translation ?? a.text) : a.text);
    if (request.kind === 'propose_themes') {
      const given = new Set(this.lines(request.user, '{"id":"T').map((t) => t.theme!.toLowerCase()));
      const themes = this.groups
        .filter((g) => !g.labels.some((label) => given.has(label.toLowerCase())) && answers.some((a) => g.pattern.test(read(a))))
        .map((g) => ({ theme: g.labels[0], description: g.description }));
      return { themes };
    }
    if (request.kind === 'code_answers') {
      const themes = this.lines(request.user, '{"id":"T');
      const patternOf = (label: string) => this.groups.filter((g) => g.labels.some((l) => l.toLowerCase() === label.toLowerCase())).map((g) => g.pattern);
      const longest = new Map<string, Line>();
      const firstWords = (text: string) => text.split(' ').slice(0, 5).join(' ');
      const codes = answers.map((a) => {
        const ids = themes.filter((t) => patternOf(t.theme!).some((p) => p.test(read(a)))).map((t) => t.id);
        // With a translator: the longest answer of each kind (as written, translated from a Latin or a CJK script) per theme, so that a theme shows each.
        for (const id of ids) {
          const key = this.translator ? `${id}#${a.translation === undefined ? 'original' : CJK.test(a.text) ? 'translated-cjk' : 'translated'}` : id;
          if ((longest.get(key)?.text.length ?? -1) < a.text.length) longest.set(key, a);
        }
        return { answer: a.id, themes: ids.slice(0, 3) };
      });
      const quotes = [...longest].map(([key, a]) => ({
        theme: key.split('#')[0],
        answer: a.id,
        text: firstWords(a.text),
        ...(this.translator ? { translation: a.translation === undefined ? null : firstWords(a.translation) } : {}),
      }));
      return { codes, quotes };
    }
    const questionThemes = this.lines(request.user, '{"id":"t');
    return { themes: [{ theme: 'What 12 customers raised', description: 'Everything the 12 customers said, together.', questionThemes: questionThemes.map((t) => t.id), quotes: [] }] };
  }
}
