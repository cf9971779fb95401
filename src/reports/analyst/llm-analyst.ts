import { Logger } from '@nestjs/common';
import { INTERVIEWER_LIMITS } from '../../interviewers/interviewer.limits';
import { CONTEXT_TOKENS, type OpenAiAgentConfig } from '../../interviewers/interviewers.config';
import type { AnalysisAnswer, AnalysisResult, QuestionReport, Theme } from '../analysis/analysis.types';
import { analyzeOffline } from '../analysis/offline-analysis';
import type { OfflineAnalysisRunner } from '../analysis/offline-analysis-runner';
import { isVerbatimQuote } from '../analysis/quotes';
import { MAX_THEMES_ACROSS } from '../analysis/themes';
import type { Yielder } from '../analysis/yielder';
import type { AnalysisInput, AnalysisRun, Analyst } from './analyst';
import { askForJson, type ChatMessage, type JsonFormat } from './chat-json';
import {
  ANSWER_TOKENS,
  DESCRIPTION_CHARS,
  INTERVIEW_THEMES,
  LABEL_CHARS,
  MAX_QUOTES,
  MAX_THEMES,
  MEMBER_TOKENS,
  MIN_ANSWER_TOKENS,
  QUESTION_THEMES,
  answerLine,
  estimateTokens,
  interviewSystemPrompt,
  interviewUserMessage,
  questionMessages,
  questionSystemPrompt,
  questionUserFrame,
  type PromptQuestion,
  type QuestionThemeLine,
} from './llm-prompts';

export interface LlmAnalystOptions {
  /** A chat-completions response larger than this is not read to the end (default: the interviewer agents' bound, 1 MiB). */
  responseBytes?: number;
  /** Runs the offline analysis the model's parts start from and fall back to (default: in this process). */
  offline?: OfflineAnalysisRunner;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };
const failure = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A theme as the server builds it from the model's answers: members and quotes point at answers by their index in the input. */
interface CodedTheme {
  theme: string;
  description: string;
  members: Set<number>;
  quotes: { doc: number; text: string }[];
}

/** A theme as the model gave it, once its answer matched the schema; `refs` are its member ids (answers, or question themes). */
interface RawTheme {
  theme: string;
  description: string;
  refs: string[];
  quotes: { answer: string; text: string }[];
}

/** One report row's answers: a guideline question's, or (questionIndex null) those of no guideline question. */
interface Group extends PromptQuestion {
  docs: number[];
}

/** What one analysis run shares among its parts. */
interface Work {
  input: AnalysisInput;
  run: AnalysisRun;
  yielder: Yielder;
}

/** Some servers put the JSON schema in the model's prompt: its room is counted in with the prompt's. */
const SCHEMA_TOKENS = { question: estimateTokens(JSON.stringify(QUESTION_THEMES.schema)), interview: estimateTokens(JSON.stringify(INTERVIEW_THEMES.schema)) };

/** The answer ids of the prompts: `a1` is the input's first answer. */
const idOf = (doc: number): string => `a${doc + 1}`;

/**
 * An analyst that has a model on an OpenAI-compatible chat-completions server code the themes:
 *
 * - The offline analysis runs first: it makes every part the model does not (answered, median words,
 *   sentiment, keyphrases, tone quotes), and is what a part the model fails on falls back to.
 * - Each question with answers is one part: its answers go to the model under short ids, in as many
 *   requests as the context (contextTokens) needs, one request at a time. The first request proposes
 *   the codebook; each later one gets the codebook so far and assigns its answers to those themes or adds
 *   new ones, up to 6 in all.
 * - Themes across the interview are one more part, built from the question themes the model coded.
 * - Whatever the model answers, the server maps member ids back to answers (unknown ids are ignored),
 *   counts each theme's interviewees from its members itself, and keeps a quote only when it cites one of
 *   the theme's members and is verbatim (isVerbatimQuote); the rest are counted in droppedQuotes.
 * - A part that fails (an HTTP error, a timeout, an unreachable server, an answer that is not JSON or not
 *   of the schema, no theme left after the checks) is the offline analysis' and a note says which and why,
 *   in general words: never the model's output, an answer, or the key.
 */
export class LlmAnalyst implements Analyst {
  private readonly logger = new Logger(LlmAnalyst.name);
  private readonly contextTokens: number;
  private readonly responseBytes: number;
  private readonly offline?: OfflineAnalysisRunner;

  constructor(
    private readonly name: string,
    private readonly config: OpenAiAgentConfig,
    options: LlmAnalystOptions = {},
  ) {
    this.contextTokens = config.contextTokens ?? CONTEXT_TOKENS.default;
    this.responseBytes = options.responseBytes ?? INTERVIEWER_LIMITS.responseBytes;
    this.offline = options.offline;
  }

  /**
   * Progress counts the offline analysis' steps (twice the answers), then each answer as its question's
   * part ends or its request is answered, then one for the themes across the interview.
   */
  async analyze(input: AnalysisInput, run: AnalysisRun): Promise<AnalysisResult> {
    const { answers } = input;
    const total = answers.length * 3 + 1;
    const offlineRun = { yielder: run.yielder, signal: run.signal, onProgress: (done: number) => run.onProgress?.(done, total) };
    const offline = this.offline
      ? await this.offline.analyze({ questions: input.questions, answers }, offlineRun)
      : await analyzeOffline({ questions: input.questions, answers }, offlineRun);
    let done = answers.length * 2;
    const progress = (count: number) => {
      done += count;
      run.onProgress?.(done, total);
    };
    run.signal?.throwIfAborted();

    const work: Work = { input, run, yielder: run.yielder };
    const notes: string[] = [];
    let droppedQuotes = 0;
    const questions: QuestionReport[] = [];
    const coded: { group: Group; themes: CodedTheme[] }[] = [];
    const fellBack: Group[] = [];
    const groups = groupsOf(offline.questions, input);
    for (const [i, group] of groups.entries()) {
      if (!group.docs.length) {
        questions.push(offline.questions[i]);
        continue;
      }
      let reported = 0;
      const outcome = await this.codeQuestion(group, work, (count) => {
        reported += count;
        progress(count);
      });
      if (reported < group.docs.length) progress(group.docs.length - reported);
      if (outcome.ok) {
        const ranked = rank(outcome.value.themes, answers);
        questions.push({ ...offline.questions[i], themes: await toThemes(ranked, answers, run.yielder) });
        coded.push({ group, themes: ranked });
        droppedQuotes += outcome.value.dropped;
      } else {
        questions.push(offline.questions[i]);
        fellBack.push(group);
        notes.push(`Themes of ${partName(group)} are the offline analysis: ${outcome.reason}.`);
        this.logFallback(group.questionIndex === null ? 'unattributed answers' : `question ${group.questionIndex + 1}`, outcome.reason);
      }
    }

    let themes = offline.themes;
    if (answers.length) {
      const outcome = coded.length ? await this.codeAcross(coded, groups, work) : failure("the model coded no question's themes");
      if (outcome.ok) {
        themes = await toThemes(rank(outcome.value.themes, answers), answers, run.yielder);
        droppedQuotes += outcome.value.dropped;
        if (fellBack.length) notes.push(`Themes across the interview leave out ${listParts(fellBack)}, whose themes are the offline analysis.`);
      } else {
        notes.push(`Themes across the interview are the offline analysis: ${outcome.reason}.`);
        this.logFallback('themes across the interview', outcome.reason);
      }
    }
    progress(1);
    return { questions, themes, droppedQuotes, notes: [...offline.notes, ...notes], codes: offline.codes };
  }

  /** One question's themes, its answers sent in batches that fit the context; the codebook grows batch by batch. */
  private async codeQuestion(group: Group, work: Work, onCoded: (count: number) => void): Promise<Outcome<{ themes: CodedTheme[]; dropped: number }>> {
    const { answers } = work.input;
    const system = questionSystemPrompt(work.input.context);
    const codebook: CodedTheme[] = [];
    let dropped = 0;
    for (let from = 0, batches = 0; from < group.docs.length; batches++) {
      const frame = questionUserFrame(group, codebook.map(({ theme, description }) => ({ theme, description })), batches > 0);
      const batch = await this.batchOf(group.docs, from, estimateTokens(system) + estimateTokens(frame) + SCHEMA_TOKENS.question, work);
      if (!batch) return failure("its prompt does not fit in the model's context (contextTokens)");
      const outcome = await this.ask(questionMessages(system, frame, batch.lines), QUESTION_THEMES, work.run);
      if (!outcome.ok) return outcome;
      const raw = readRawThemes(outcome.value, 'members');
      if (!raw.ok) return raw;
      // Only this batch's ids count: the model saw no other answers in this request.
      const docOf = (id: string) => batch.ids.get(id);
      dropped += await mergeThemes(codebook, raw.value, MAX_THEMES, (id) => optionalList(docOf(id)), docOf, answers, work.yielder);
      from += batch.ids.size;
      onCoded(batch.ids.size);
    }
    if (!codebook.length) return failure('none of the themes the model gave had a member among the answers it was given');
    return { ok: true, value: { themes: codebook, dropped } };
  }

  /**
   * The answers from `from` on that fit the room the context leaves beside `fixedTokens` of prompt and
   * the model's answer; at least one, cut to fit when it alone is too long. Null when there is no room.
   */
  private async batchOf(docs: readonly number[], from: number, fixedTokens: number, work: Work): Promise<{ lines: string[]; ids: Map<string, number> } | null> {
    const room = this.contextTokens - fixedTokens - ANSWER_TOKENS;
    if (room < MIN_ANSWER_TOKENS) return null;
    const lines: string[] = [];
    const ids = new Map<string, number>();
    let used = 0;
    for (let i = from; i < docs.length; i++) {
      if (work.yielder.due()) await work.yielder.giveWay();
      const doc = docs[i];
      const id = idOf(doc);
      let line = answerLine(id, work.input.answers[doc].answer);
      // The line, its line break, and its id among some theme's members in the answer.
      let cost = estimateTokens(line) + 1 + MEMBER_TOKENS;
      if (used + cost > room) {
        if (lines.length) break;
        line = cutToFit(id, work.input.answers[doc].answer, room - 1 - MEMBER_TOKENS);
        cost = room;
      }
      lines.push(line);
      ids.set(id, doc);
      used += cost;
    }
    return { lines, ids };
  }

  /**
   * Themes across the interview: the model groups the question themes it coded (by their ids, labels,
   * descriptions and verified quotes); a theme's members are the union of its question themes' members.
   */
  private async codeAcross(
    coded: readonly { group: Group; themes: CodedTheme[] }[],
    groups: readonly Group[],
    work: Work,
  ): Promise<Outcome<{ themes: CodedTheme[]; dropped: number }>> {
    const { answers } = work.input;
    const lines: QuestionThemeLine[] = [];
    const membersOf = new Map<string, number[]>();
    for (const { group, themes } of coded) {
      for (const theme of themes) {
        if (work.yielder.due()) await work.yielder.giveWay();
        const id = `t${lines.length + 1}`;
        membersOf.set(id, [...theme.members]);
        lines.push({
          id,
          question: group.questionIndex === null ? null : group.questionIndex + 1,
          theme: theme.theme,
          description: theme.description,
          interviewees: distinctLinks(theme.members, answers),
          quotes: theme.quotes.map(({ doc, text }) => ({ answer: idOf(doc), text })),
        });
      }
    }
    const system = interviewSystemPrompt(work.input.context, MAX_THEMES_ACROSS);
    const answerRoom = SCHEMA_TOKENS.interview + ANSWER_TOKENS + MEMBER_TOKENS * lines.length;
    // The quotes are what the model may quote from; when they do not fit, it groups the themes without them.
    const user = [true, false]
      .map((withQuotes) => interviewUserMessage(groups, lines, withQuotes))
      .find((message) => estimateTokens(system) + estimateTokens(message) + answerRoom <= this.contextTokens);
    if (user === undefined) return failure("its prompt does not fit in the model's context (contextTokens)");
    const messages: ChatMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ];
    const outcome = await this.ask(messages, INTERVIEW_THEMES, work.run);
    if (!outcome.ok) return outcome;
    const raw = readRawThemes(outcome.value, 'questionThemes');
    if (!raw.ok) return raw;
    const themes: CodedTheme[] = [];
    const dropped = await mergeThemes(themes, raw.value, MAX_THEMES_ACROSS, (id) => membersOf.get(id), (id) => docOfId(id, answers.length), answers, work.yielder);
    if (!themes.length) return failure('none of the themes the model gave brought together a question theme it was given');
    return { ok: true, value: { themes, dropped } };
  }

  private ask(messages: ChatMessage[], format: JsonFormat, run: AnalysisRun) {
    return askForJson(this.config, messages, format, { responseBytes: this.responseBytes, stop: run.signal });
  }

  private logFallback(part: string, reason: string): void {
    this.logger.warn({ msg: 'report part is the offline analysis', agent: this.name, part, reason });
  }
}

/**
 * The answers of each of the offline analysis' rows, in its order: a guideline question's answers, and
 * for the row without a question those of no guideline question (null, or an index the interview does
 * not list), as the offline analysis groups them.
 */
function groupsOf(rows: readonly QuestionReport[], input: AnalysisInput): Group[] {
  const known = new Set(input.questions.map((q) => q.questionIndex));
  const byIndex = new Map<number | null, number[]>(rows.map((row) => [row.questionIndex, []]));
  input.answers.forEach((answer, doc) => {
    const index = answer.questionIndex !== null && known.has(answer.questionIndex) ? answer.questionIndex : null;
    byIndex.get(index)?.push(doc);
  });
  return rows.map((row) => ({ questionIndex: row.questionIndex, question: row.question, docs: byIndex.get(row.questionIndex) ?? [] }));
}

/**
 * The model's {"themes": [...]} held to the schema asked for: each theme with a string label and
 * description, a list of string ids under `refsKey`, and quotes of {answer, text} strings. Other keys
 * (a count the model states, say) are ignored; anything else is a failure of the whole answer.
 */
function readRawThemes(value: unknown, refsKey: 'members' | 'questionThemes'): Outcome<RawTheme[]> {
  const mismatch = failure("the model's answer did not match the requested JSON schema");
  if (!isObject(value) || !Array.isArray(value.themes)) return mismatch;
  const themes: RawTheme[] = [];
  for (const item of value.themes as unknown[]) {
    if (!isObject(item) || typeof item.theme !== 'string' || typeof item.description !== 'string') return mismatch;
    const refs = item[refsKey];
    if (!Array.isArray(refs) || !refs.every((ref) => typeof ref === 'string')) return mismatch;
    if (!Array.isArray(item.quotes)) return mismatch;
    const quotes: RawTheme['quotes'] = [];
    for (const quote of item.quotes as unknown[]) {
      if (!isObject(quote) || typeof quote.answer !== 'string' || typeof quote.text !== 'string') return mismatch;
      quotes.push({ answer: quote.answer, text: quote.text });
    }
    themes.push({ theme: item.theme, description: item.description, refs: refs as string[], quotes });
  }
  return { ok: true, value: themes };
}

/**
 * Adds the model's themes to `codebook`: a label already there (case aside) adds its members to that
 * theme, a new one is added while there are fewer than `cap`. A theme without a known member is left
 * out. A quote is kept when it cites one of its theme's members and is verbatim; one that does not is
 * dropped and counted; past MAX_QUOTES, or repeated, it is left out uncounted. Returns the count.
 */
async function mergeThemes(
  codebook: CodedTheme[],
  raws: readonly RawTheme[],
  cap: number,
  membersOf: (ref: string) => readonly number[] | undefined,
  docOf: (id: string) => number | undefined,
  answers: readonly AnalysisAnswer[],
  yielder: Yielder,
): Promise<number> {
  let dropped = 0;
  for (const raw of raws) {
    const label = clip(plainText(raw.theme), LABEL_CHARS);
    if (label === '') continue;
    const members = new Set<number>();
    for (const ref of raw.refs) {
      for (const doc of membersOf(ref) ?? []) members.add(doc);
      if (yielder.due()) await yielder.giveWay();
    }
    if (!members.size) continue;
    let theme = codebook.find((known) => known.theme.toLowerCase() === label.toLowerCase());
    if (!theme) {
      if (codebook.length >= cap) continue;
      theme = { theme: label, description: clip(plainText(raw.description), DESCRIPTION_CHARS), members: new Set(), quotes: [] };
      codebook.push(theme);
    }
    for (const doc of members) theme.members.add(doc);
    for (const quote of raw.quotes) {
      if (yielder.due()) await yielder.giveWay();
      const doc = docOf(quote.answer);
      if (doc === undefined || !theme.members.has(doc) || !isVerbatimQuote(quote, { role: 'interviewee', content: answers[doc].answer })) {
        dropped++;
        continue;
      }
      if (theme.quotes.length < MAX_QUOTES && !theme.quotes.some((kept) => kept.doc === doc && kept.text === quote.text)) theme.quotes.push({ doc, text: quote.text });
    }
  }
  return dropped;
}

/** Most interviewees first; ties in the model's order. */
function rank(coded: readonly CodedTheme[], answers: readonly AnalysisAnswer[]): CodedTheme[] {
  return coded
    .map((theme) => ({ theme, count: distinctLinks(theme.members, answers) }))
    .sort((a, b) => b.count - a.count)
    .map(({ theme }) => theme);
}

/** The report's themes: their interviewees counted from their members. */
async function toThemes(coded: readonly CodedTheme[], answers: readonly AnalysisAnswer[], yielder: Yielder): Promise<Theme[]> {
  const themes: Theme[] = [];
  for (const [i, theme] of coded.entries()) {
    if (yielder.due()) await yielder.giveWay();
    themes.push({
      // The model's themes are not coded answer by answer yet: numbered in order, counted from their members.
      themeID: `t${i + 1}`,
      theme: theme.theme,
      description: theme.description,
      keyphrases: [],
      answers: distinctLinks(theme.members, answers),
      mentions: [...theme.members].length,
      quotes: theme.quotes.map(({ doc, text }) => ({ linkID: answers[doc].linkID, turnIndex: answers[doc].turnIndex, text })),
      emerging: false,
      language: null,
    });
  }
  return themes;
}

function distinctLinks(docs: Iterable<number>, answers: readonly AnalysisAnswer[]): number {
  const links = new Set<string>();
  for (const doc of docs) links.add(answers[doc].linkID);
  return links.size;
}

const optionalList = (doc: number | undefined): number[] | undefined => (doc === undefined ? undefined : [doc]);

/** `a17` → the input's answer 16, when there is one. */
function docOfId(id: string, count: number): number | undefined {
  const match = /^a([1-9][0-9]{0,9})$/.exec(id);
  const doc = match ? Number(match[1]) - 1 : -1;
  return doc >= 0 && doc < count ? doc : undefined;
}

/** One line of text with single spaces; empty when it holds NUL characters or unpaired surrogates. */
function plainText(text: string): string {
  if (text.includes('\0') || !text.isWellFormed()) return '';
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` characters, an ellipsis ending one that was cut (never inside a surrogate pair). */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (!cut.isWellFormed()) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** An answer's prompt line shortened to about `tokens`: the model codes what it sees, the quote check reads the whole answer. */
function cutToFit(id: string, text: string, tokens: number): string {
  let keep = Math.max(0, tokens * 4 - answerLine(id, '', true).length);
  for (;;) {
    let cut = text.slice(0, keep);
    if (!cut.isWellFormed()) cut = cut.slice(0, -1);
    const line = answerLine(id, cut, true);
    // JSON escapes (quotes, line breaks) make a line longer than its text: shorten by the excess.
    const excess = line.length - tokens * 4;
    if (excess <= 0 || keep === 0) return line;
    keep = Math.max(0, keep - excess);
  }
}

function partName(group: PromptQuestion): string {
  return group.questionIndex === null ? 'the unattributed answers' : `question ${group.questionIndex + 1} ("${clip(group.question ?? '', 80)}")`;
}

/** "question 2", "questions 2 and 4", "questions 2, 3 and the unattributed answers". */
function listParts(groups: readonly Group[]): string {
  const numbers = groups.filter((g) => g.questionIndex !== null).map((g) => String((g.questionIndex as number) + 1));
  const parts = numbers.length ? [`${numbers.length === 1 ? 'question' : 'questions'} ${numbers[0]}`, ...numbers.slice(1)] : [];
  if (groups.some((g) => g.questionIndex === null)) parts.push('the unattributed answers');
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
