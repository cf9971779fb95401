import { Logger } from '@nestjs/common';
import { INTERVIEWER_LIMITS } from '../../interviewers/interviewer.limits';
import { CONTEXT_TOKENS, type OpenAiAgentConfig } from '../../interviewers/interviewers.config';
import type { CodebookTheme } from '../../codebooks/codebook.types';
import type { AnalysisAnswer, AnalysisResult, AnswerCode, QuestionReport, Quote, Theme } from '../analysis/analysis.types';
import { analyzeOffline } from '../analysis/offline-analysis';
import type { OfflineAnalysisRunner } from '../analysis/offline-analysis-runner';
import { isVerbatimQuote } from '../analysis/quotes';
import type { Yielder } from '../analysis/yielder';
import { CodeTally } from '../report-codes';
import type { AnalysisInput, AnalysisRun, Analyst } from './analyst';
import { askForJson, type ChatMessage, type JsonFormat } from './chat-json';
import {
  ANSWERS_PER_BATCH,
  ANSWERS_TO_PROPOSE,
  ANSWER_TOKENS,
  CODE_ANSWERS,
  CODE_TOKENS,
  DESCRIPTION_CHARS,
  INTERVIEW_THEMES,
  LABEL_CHARS,
  MAX_CODES_PER_ANSWER,
  MAX_QUOTES,
  MAX_THEMES_ACROSS,
  MEMBER_TOKENS,
  MIN_ANSWER_TOKENS,
  PROPOSE_THEMES,
  ANSWERS_PER_TRANSLATION,
  TRANSLATE_ANSWERS,
  reportLanguageOf,
  translateSystemPrompt,
  translateUserFrame,
  answerLine,
  codeSystemPrompt,
  codeUserFrame,
  estimateTokens,
  interviewSystemPrompt,
  interviewUserMessage,
  proposeSystemPrompt,
  proposeUserFrame,
  withAnswers,
  type PromptQuestion,
  type PromptTheme,
  type QuestionThemeLine,
} from './llm-prompts';

export interface LlmAnalystOptions {
  /** A chat-completions response larger than this is not read to the end (default: the interviewer agents' bound, 1 MiB). */
  responseBytes?: number;
  /** Runs the offline analysis the model's parts start from and fall back to (default: in this process). */
  offline?: Pick<OfflineAnalysisRunner, 'analyze'>;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };
const failure = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A theme of a question as the analyst builds it: `key` is its id in the prompts (`T3`). */
interface Draft {
  key: string;
  theme: string;
  description: string;
  keyphrases: string[];
  /** Its place in the codebook (1-based), for a codebook theme. */
  codebook: number | null;
  emerging: boolean;
  examples: string[];
  /** Verified quotes, by the answer they cite, with the model's translation of each (null: none). */
  quotes: { doc: number; text: string; translation: string | null }[];
}

/** One report row's answers: a guideline question's, or (questionIndex null) those of no guideline question. */
interface Group extends PromptQuestion {
  docs: number[];
  /** The offline analysis' row: what the model does not make, and the fallback. */
  row: QuestionReport;
}

/** A question the model coded: its themes (ids given) and each answer's themes. */
interface CodedQuestion {
  group: Group;
  themes: Theme[];
  /** The answers of each theme. */
  members: Map<string, number[]>;
}

/** What one analysis run shares among its parts. */
interface Work {
  input: AnalysisInput;
  run: AnalysisRun;
  yielder: Yielder;
  /** Each answer's codes (of its question, across the interview) as they are decided. */
  codes: AnswerCode[];
  /** The offline analysis' codes by answer (none when it did not code). */
  offlineCodes: (AnswerCode | undefined)[];
  notes: string[];
  dropped: number;
  progress(count: number): void;
  /** The report's language: every theme the model writes is in it. */
  language: string;
  /** The model's translation of each answer in another language than the report's, by answer. */
  translations: Map<number, string>;
}

/** A quote's translation as a report keeps it: the model's text, one that is not clean text dropped, cut to a bound. */
const QUOTE_TRANSLATION_CHARS = 1000;
function quoteTranslation(translation: unknown): string | null {
  if (typeof translation !== 'string' || translation.includes('\0') || !translation.isWellFormed()) return null;
  const text = translation.trim();
  return text ? clip(text, QUOTE_TRANSLATION_CHARS) : null;
}

/** Some servers put the JSON schema in the model's prompt: its room is counted in with the prompt's. */
const SCHEMA_TOKENS = {
  propose: estimateTokens(JSON.stringify(PROPOSE_THEMES.schema)),
  code: estimateTokens(JSON.stringify(CODE_ANSWERS.schema)),
  interview: estimateTokens(JSON.stringify(INTERVIEW_THEMES.schema)),
  translate: estimateTokens(JSON.stringify(TRANSLATE_ANSWERS.schema)),
};

/** The answer ids of the prompts: `a1` is the input's first answer. */
const idOf = (doc: number): string => `a${doc + 1}`;

/** A digit, with what stands with it ("12%", "3.5", "2,000"): counts are the server's, and a model's text holds none. */
const NUMBER = /[+-]?\p{N}+(?:[.,:]\p{N}+)*\s*%?/gu;

/**
 * A model's label or description as a report keeps it: one line of plain text, its numbers removed
 * (whatever script they are written in), cut to `max` characters. Empty when nothing is left, or when
 * it holds NUL characters or unpaired surrogates.
 */
export function modelText(text: string, max: number): string {
  if (text.includes('\0') || !text.isWellFormed()) return '';
  const plain = text
    .replace(NUMBER, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:!?)\]}])/g, '$1')
    .replace(/([([{])\s+/g, '$1')
    .replace(/\(\s*\)|\[\s*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return /[\p{L}]/u.test(plain) ? clip(plain, max) : '';
}

/**
 * An analyst that has a model on an OpenAI-compatible chat-completions server code every answer:
 *
 * - The offline analysis runs first: it makes every part the model does not (answered, median words,
 *   sentiment, keyphrases, tone quotes), and is what a part the model fails on falls back to.
 * - Each question with answers: the model proposes up to maxThemes themes from a sample of its answers
 *   that fits the context (with a codebook: its themes stay, labels and order kept, and the model only
 *   proposes emerging ones for what they do not cover, in the room maxThemes leaves). Then every answer
 *   is coded against those themes, in batches that fit the context, one request at a time: each answer
 *   gets up to 3 themes, or none (other). A batch that fails keeps the offline analysis' codes for its
 *   answers (their offline themes join the question's), and a note says so; when every batch fails,
 *   or no theme can be proposed, the question is the offline analysis'.
 * - Themes across the interview: the model groups the question themes it coded; an answer is in an
 *   across theme when it is coded with one of its question themes.
 * - Whatever the model answers, the server maps ids back to answers (unknown ids are ignored), counts
 *   every theme from the codes itself, removes digits from labels and descriptions (at most 80 and
 *   300 characters), and keeps a quote only when it cites an answer coded with its theme and is
 *   verbatim (isVerbatimQuote); the rest are counted in droppedQuotes.
 * - A failure (an HTTP error, a timeout, an unreachable server, an answer that is not JSON or not of
 *   the schema) is described in general words: never the model's output, an answer, or the key.
 */
export class LlmAnalyst implements Analyst {
  private readonly logger = new Logger(LlmAnalyst.name);
  private readonly contextTokens: number;
  private readonly responseBytes: number;
  private readonly offline?: Pick<OfflineAnalysisRunner, 'analyze'>;

  constructor(
    private readonly name: string,
    private readonly config: OpenAiAgentConfig,
    options: LlmAnalystOptions = {},
  ) {
    this.contextTokens = config.contextTokens ?? CONTEXT_TOKENS.default;
    this.responseBytes = options.responseBytes ?? INTERVIEWER_LIMITS.responseBytes;
    this.offline = options.offline;
  }

  /** Progress counts the offline analysis' steps (twice the answers), then each answer as it is coded, then one for the themes across the interview. */
  async analyze(input: AnalysisInput, run: AnalysisRun): Promise<AnalysisResult> {
    const { answers } = input;
    const total = answers.length * 3 + 1;
    const offlineRun = { yielder: run.yielder, signal: run.signal, onProgress: (done: number) => run.onProgress?.(done, total) };
    const offline = this.offline
      ? await this.offline.analyze({ questions: input.questions, answers }, offlineRun)
      : await analyzeOffline({ questions: input.questions, answers }, offlineRun);
    let done = answers.length * 2;
    run.signal?.throwIfAborted();

    const work: Work = {
      input,
      run,
      yielder: run.yielder,
      codes: answers.map((a) => ({ linkID: a.linkID, turnIndex: a.turnIndex, questionIndex: a.questionIndex, themeIDs: [], acrossThemeIDs: [] })),
      offlineCodes: offlineCodesOf(offline, answers),
      notes: [],
      dropped: 0,
      progress: (count) => run.onProgress?.((done += count), total),
      language: reportLanguageOf(input.context),
      translations: new Map(),
    };
    await this.translate(work);
    const questions: QuestionReport[] = [];
    const coded: CodedQuestion[] = [];
    const fellBack: Group[] = [];
    for (const group of groupsOf(offline.questions, input)) {
      if (!group.docs.length) {
        questions.push(group.row);
        continue;
      }
      const before = done;
      const outcome = await this.codeQuestion(group, work);
      work.progress(before + group.docs.length - done);
      if (outcome.ok) {
        questions.push({ ...group.row, themes: outcome.value.themes });
        coded.push(outcome.value);
      } else {
        questions.push(group.row);
        fellBack.push(group);
        for (const doc of group.docs) work.codes[doc].themeIDs = work.offlineCodes[doc]?.themeIDs ?? [];
        work.notes.push(`Themes of ${partName(group)} are the offline analysis: ${outcome.reason}.`);
        this.logFallback(group.questionIndex === null ? 'unattributed answers' : `question ${group.questionIndex + 1}`, outcome.reason);
      }
    }

    let themes = offline.themes;
    if (answers.length) {
      const outcome = coded.length ? await this.codeAcross(coded, work) : failure("the model coded no question's themes");
      if (outcome.ok) {
        themes = outcome.value;
        if (fellBack.length) work.notes.push(`Themes across the interview leave out ${listParts(fellBack)}, whose themes are the offline analysis.`);
      } else {
        for (const [doc, code] of work.codes.entries()) code.acrossThemeIDs = work.offlineCodes[doc]?.acrossThemeIDs ?? [];
        work.notes.push(`Themes across the interview are the offline analysis: ${outcome.reason}.`);
        this.logFallback('themes across the interview', outcome.reason);
      }
    }
    work.progress(1);
    const result: AnalysisResult = { questions, themes, droppedQuotes: work.dropped, notes: [...offline.notes, ...work.notes], codes: work.codes };
    // Counted by the server from the codes, whatever the model stated.
    const tally = new CodeTally(questions);
    work.codes.forEach((code, doc) => tally.add({ ...code, words: answers[doc].words, sentiment: answers[doc].sentiment }));
    tally.applyTo(result);
    return result;
  }

  /**
   * The answers in other languages than the report's, translated by the model in batches, one request
   * at a time: the prompts then list each with its translation, which the model codes by (quoting the
   * original). A batch that fails leaves its answers as they are written, and a note says so.
   */
  private async translate(work: Work): Promise<void> {
    const { answers } = work.input;
    const docs = answers.flatMap((answer, doc) => (answer.language === work.language ? [] : [doc]));
    if (!docs.length) return;
    const system = translateSystemPrompt(work.input.context);
    const frame = translateUserFrame();
    const missed: number[] = [];
    let reason = '';
    for (let from = 0; from < docs.length; ) {
      // The model's answer repeats each answer translated: as much room again as the answers take.
      const batch = await this.batchOf(docs, from, estimateTokens(system) + estimateTokens(frame) + SCHEMA_TOKENS.translate, 0, ANSWERS_PER_TRANSLATION, work, 2);
      if (!batch) {
        missed.push(...docs.slice(from));
        reason = "its prompt does not fit in the model's context (contextTokens)";
        break;
      }
      const outcome = await this.ask(withAnswers(system, frame, batch.lines), TRANSLATE_ANSWERS, work.run);
      const read = outcome.ok ? readTranslations(outcome.value) : outcome;
      if (read.ok) {
        for (const { answer, text } of read.value) {
          const doc = batch.ids.get(answer);
          const translation = quoteTranslation(text);
          if (doc !== undefined && translation) work.translations.set(doc, translation);
        }
        missed.push(...batch.docs.filter((doc) => !work.translations.has(doc)));
        if (!reason && missed.length) reason = 'the model left some out';
      } else {
        missed.push(...batch.docs);
        reason = read.reason;
      }
      from += batch.docs.length;
    }
    if (missed.length) {
      work.notes.push(`${missed.length} of the ${docs.length} answers in other languages than ${work.language} could not be translated (${reason}): the model coded them as written.`);
      this.logFallback('translation of the answers', reason);
    }
  }

  /**
   * One question: its themes proposed (beside the codebook's, when there is one), then every answer
   * coded in batches. Writes the answers' codes into work.codes when it succeeds.
   */
  private async codeQuestion(group: Group, work: Work): Promise<Outcome<CodedQuestion>> {
    const { maxThemes } = work.input.options;
    const codebook = group.questionIndex === null ? [] : (work.input.options.codebook.find((q) => q.questionIndex === group.questionIndex)?.themes ?? []);
    const drafts: Draft[] = codebook.map((t, i) => fromCodebook(t, i));
    const room = Math.max(0, maxThemes - drafts.length);
    if (room > 0) {
      const proposed = await this.propose(group, drafts, room, work);
      if (!proposed.ok && !drafts.length) return proposed;
      if (!proposed.ok) work.notes.push(`No new themes were looked for beside the codebook's in ${partName(group)}: ${proposed.reason}.`);
      for (const theme of proposed.ok ? proposed.value : []) {
        if (drafts.length >= codebook.length + room) break;
        if (drafts.some((d) => d.theme.toLowerCase() === theme.theme.toLowerCase())) continue;
        drafts.push({ ...theme, key: `T${drafts.length + 1}`, codebook: null, emerging: codebook.length > 0, keyphrases: [], examples: [], quotes: [] });
      }
    }
    if (!drafts.length) return failure('the model proposed no theme');

    const assigned = new Map<number, string[]>();
    const missed: number[] = [];
    let reason = '';
    const system = codeSystemPrompt(work.input.context);
    const frame = codeUserFrame(group, drafts.map(promptTheme));
    const byKey = new Map(drafts.map((d) => [d.key, d]));
    for (let from = 0; from < group.docs.length; ) {
      const batch = await this.batchOf(group.docs, from, estimateTokens(system) + estimateTokens(frame) + SCHEMA_TOKENS.code, CODE_TOKENS, ANSWERS_PER_BATCH, work);
      if (!batch) return failure("its prompt does not fit in the model's context (contextTokens)");
      const outcome = await this.ask(withAnswers(system, frame, batch.lines), CODE_ANSWERS, work.run);
      const read = outcome.ok ? readCodes(outcome.value) : outcome;
      if (read.ok) {
        for (const doc of batch.docs) assigned.set(doc, []);
        for (const code of read.value.codes) {
          const doc = batch.ids.get(code.answer);
          if (doc === undefined) continue;
          const keys = assigned.get(doc)!;
          for (const key of code.themes) if (byKey.has(key) && !keys.includes(key) && keys.length < MAX_CODES_PER_ANSWER) keys.push(key);
          if (work.yielder.due()) await work.yielder.giveWay();
        }
        for (const quote of read.value.quotes) {
          const doc = batch.ids.get(quote.answer);
          const draft = byKey.get(quote.theme);
          if (doc === undefined || !draft || !assigned.get(doc)!.includes(draft.key) || !isVerbatimQuote(quote, { role: 'interviewee', content: work.input.answers[doc].answer })) {
            work.dropped++;
            continue;
          }
          if (draft.quotes.length < MAX_QUOTES && !draft.quotes.some((q) => q.doc === doc && q.text === quote.text)) draft.quotes.push({ doc, text: quote.text, translation: this.translationOf(doc, quote.translation, work) });
        }
      } else {
        missed.push(...batch.docs);
        reason = read.reason;
      }
      from += batch.docs.length;
      work.progress(batch.docs.length);
    }
    if (missed.length === group.docs.length) return failure(reason);
    if (missed.length) {
      work.notes.push(
        `${missed.length} of the ${group.docs.length} answers to ${partName(group)} could not be coded by the model (${reason}): they carry the offline analysis' codes.`,
      );
      this.logFallback(group.questionIndex === null ? 'unattributed answers' : `question ${group.questionIndex + 1}`, `a batch: ${reason}`);
    }
    return { ok: true, value: this.settle(group, drafts, assigned, missed, codebook.length, work) };
  }

  /**
   * The question's themes as the report shows them, and the answers' codes: the codebook's in its order
   * (each stays, answers or not), then the others by interviewees, those no answer was coded with left
   * out; the offline themes of answers a failed batch left to the offline analysis join them (up to
   * maxThemes). Identifiers are given in that order.
   */
  private settle(group: Group, drafts: Draft[], assigned: Map<number, string[]>, missed: readonly number[], fromCodebook: number, work: Work): CodedQuestion {
    const { answers } = work.input;
    const membersOf = new Map<string, number[]>(drafts.map((d) => [d.key, []]));
    for (const [doc, keys] of assigned) for (const key of keys) membersOf.get(key)!.push(doc);
    // Answers a batch could not code keep the offline analysis' codes; their themes come along.
    const offlineThemes = new Map(group.row.themes.map((t) => [t.themeID, t]));
    for (const doc of missed) {
      const keys: string[] = [];
      for (const id of work.offlineCodes[doc]?.themeIDs ?? []) {
        const theme = offlineThemes.get(id);
        if (!theme) continue;
        const key = `offline:${id}`;
        if (!membersOf.has(key)) {
          const kept = new Set(missed);
          const docOf = (q: Quote) => group.docs.find((d) => answers[d].linkID === q.linkID && answers[d].turnIndex === q.turnIndex);
          const quotes = theme.quotes
            .map((q) => ({ doc: docOf(q), text: q.text, translation: null }))
            .filter((q): q is { doc: number; text: string; translation: null } => q.doc !== undefined && kept.has(q.doc));
          drafts.push({ key, theme: theme.theme, description: theme.description, keyphrases: theme.keyphrases, codebook: null, emerging: fromCodebook > 0, examples: [], quotes });
          membersOf.set(key, []);
        }
        membersOf.get(key)!.push(doc);
        keys.push(key);
      }
      assigned.set(doc, keys);
    }
    const interviewees = (key: string) => distinctLinks(membersOf.get(key)!, answers);
    const listed = drafts.filter((d) => d.codebook !== null);
    const others = drafts
      .filter((d) => d.codebook === null && membersOf.get(d.key)!.length > 0)
      .map((d, order) => ({ d, order, count: interviewees(d.key) }))
      .sort((a, b) => b.count - a.count || a.order - b.order)
      .map(({ d }) => d)
      .slice(0, Math.max(0, work.input.options.maxThemes - listed.length));
    const prefix = group.questionIndex === null ? 'qx' : `q${group.questionIndex}`;
    const idOfKey = new Map<string, string>();
    listed.forEach((d) => idOfKey.set(d.key, `${prefix}-c${d.codebook}`));
    others.forEach((d, i) => idOfKey.set(d.key, `${prefix}-t${i + 1}`));
    const final = [...listed, ...others];
    const order = new Map(final.map((d, i) => [d.key, i]));
    for (const doc of group.docs) {
      const keys = (assigned.get(doc) ?? []).filter((k) => order.has(k)).sort((a, b) => order.get(a)! - order.get(b)!);
      work.codes[doc].themeIDs = keys.map((k) => idOfKey.get(k)!);
    }
    const members = new Map<string, number[]>();
    const themes = final.map((d): Theme => {
      const themeID = idOfKey.get(d.key)!;
      const docs = membersOf.get(d.key)!.filter((doc) => work.codes[doc].themeIDs.includes(themeID));
      members.set(themeID, docs);
      return {
        themeID,
        theme: d.theme,
        description: d.description,
        keyphrases: d.keyphrases,
        answers: 0,
        mentions: 0,
        quotes: d.quotes.map(({ doc, text, translation }) => ({ linkID: answers[doc].linkID, turnIndex: answers[doc].turnIndex, text, translation })),
        emerging: d.emerging,
        // The model wrote it in the report's language; a theme the offline analysis found for a failed batch keeps its answers'.
        language: d.key.startsWith('offline:') ? languageOf(docs, answers) : work.language,
      };
    });
    return { group, themes, members };
  }

  /** Up to `room` themes the model proposes from a sample of the question's answers (beside `given`, the codebook's). */
  private async propose(group: Group, given: readonly Draft[], room: number, work: Work): Promise<Outcome<{ theme: string; description: string }[]>> {
    const system = proposeSystemPrompt(work.input.context);
    const sample = evenSample(group.docs, ANSWERS_TO_PROPOSE);
    const frameOf = (sampled: boolean) => proposeUserFrame(group, given.map(promptTheme), room, sampled);
    const fixed = estimateTokens(system) + estimateTokens(frameOf(true)) + SCHEMA_TOKENS.propose;
    let batch = await this.batchOf(sample, 0, fixed, 0, ANSWERS_TO_PROPOSE, work);
    if (!batch) return failure("its prompt does not fit in the model's context (contextTokens)");
    // A context too small for the whole sample holds its first part: spread what fits over all the answers again.
    if (batch.docs.length < sample.length) batch = (await this.batchOf(evenSample(group.docs, batch.docs.length), 0, fixed, 0, batch.docs.length, work)) ?? batch;
    const outcome = await this.ask(withAnswers(system, frameOf(batch.docs.length < group.docs.length), batch.lines), PROPOSE_THEMES, work.run);
    if (!outcome.ok) return outcome;
    const value = outcome.value;
    if (!isObject(value) || !Array.isArray(value.themes)) return failure("the model's answer did not match the requested JSON schema");
    const themes: { theme: string; description: string }[] = [];
    for (const item of value.themes as unknown[]) {
      if (!isObject(item) || typeof item.theme !== 'string' || typeof item.description !== 'string') return failure("the model's answer did not match the requested JSON schema");
      const theme = modelText(item.theme, LABEL_CHARS);
      if (theme) themes.push({ theme, description: modelText(item.description, DESCRIPTION_CHARS) });
    }
    return { ok: true, value: themes };
  }

  /**
   * The answers from `from` on that fit the room the context leaves beside `fixedTokens` of prompt and
   * the model's answer (`perAnswer` tokens of it for each), at most `most`; at least one, cut to fit
   * when it alone is too long. Null when there is no room.
   */
  private async batchOf(
    docs: readonly number[],
    from: number,
    fixedTokens: number,
    perAnswer: number,
    most: number,
    work: Work,
    /** How many times its own size each answer costs (2 when the model's answer repeats it, translated). */
    factor = 1,
  ): Promise<{ lines: string[]; docs: number[]; ids: Map<string, number> } | null> {
    const room = this.contextTokens - fixedTokens - ANSWER_TOKENS;
    if (room < MIN_ANSWER_TOKENS) return null;
    const lines: string[] = [];
    const ids = new Map<string, number>();
    const batch: number[] = [];
    let used = 0;
    for (let i = from; i < docs.length && batch.length < most; i++) {
      if (work.yielder.due()) await work.yielder.giveWay();
      const doc = docs[i];
      const id = idOf(doc);
      let line = answerLine(id, work.input.answers[doc].answer, false, work.translations.get(doc));
      // The line, its line break, and its part of the model's answer.
      let cost = estimateTokens(line) * factor + 1 + perAnswer;
      if (used + cost > room) {
        if (lines.length) break;
        line = cutToFit(id, work.input.answers[doc].answer, room - 1 - perAnswer);
        cost = room;
      }
      lines.push(line);
      ids.set(id, doc);
      batch.push(doc);
      used += cost;
    }
    return { lines, docs: batch, ids };
  }

  /**
   * Themes across the interview: the model groups the question themes it coded (by their ids, labels,
   * descriptions and verified quotes); an answer is in an across theme when it is coded with one of its
   * question themes. Writes the answers' across codes into work.codes when it succeeds.
   */
  private async codeAcross(coded: readonly CodedQuestion[], work: Work): Promise<Outcome<Theme[]>> {
    const { answers } = work.input;
    const lines: QuestionThemeLine[] = [];
    const membersOf = new Map<string, number[]>();
    for (const { group, themes, members } of coded) {
      for (const theme of themes) {
        if (work.yielder.due()) await work.yielder.giveWay();
        const docs = members.get(theme.themeID) ?? [];
        if (!docs.length) continue;
        const id = `t${lines.length + 1}`;
        membersOf.set(id, docs);
        const docOf = (q: Quote) => docs.find((d) => answers[d].linkID === q.linkID && answers[d].turnIndex === q.turnIndex);
        lines.push({
          id,
          question: group.questionIndex === null ? null : group.questionIndex + 1,
          theme: theme.theme,
          description: theme.description,
          interviewees: distinctLinks(docs, answers),
          quotes: theme.quotes.flatMap((q) => {
            const doc = docOf(q);
            return doc === undefined ? [] : [{ answer: idOf(doc), text: q.text }];
          }),
        });
      }
    }
    if (!lines.length) return failure('no question theme had an answer');
    const system = interviewSystemPrompt(work.input.context, MAX_THEMES_ACROSS);
    const answerRoom = SCHEMA_TOKENS.interview + ANSWER_TOKENS + MEMBER_TOKENS * lines.length;
    const questions = coded.map(({ group }) => group);
    // The quotes are what the model may quote from; when they do not fit, it groups the themes without them.
    const user = [true, false]
      .map((withQuotes) => interviewUserMessage(questions, lines, withQuotes))
      .find((message) => estimateTokens(system) + estimateTokens(message) + answerRoom <= this.contextTokens);
    if (user === undefined) return failure("its prompt does not fit in the model's context (contextTokens)");
    const messages: ChatMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ];
    const outcome = await this.ask(messages, INTERVIEW_THEMES, work.run);
    if (!outcome.ok) return outcome;
    const value = outcome.value;
    const mismatch = failure("the model's answer did not match the requested JSON schema");
    if (!isObject(value) || !Array.isArray(value.themes)) return mismatch;
    const drafts: { theme: string; description: string; members: Set<number>; quotes: { doc: number; text: string; translation: string | null }[] }[] = [];
    // The question quotes' translations, for a quote the model copies from them without its own.
    const translated = new Map<string, string | null>();
    for (const { themes } of coded) for (const theme of themes) for (const q of theme.quotes) translated.set(`${q.linkID}#${q.turnIndex}#${q.text}`, q.translation ?? null);
    for (const item of value.themes as unknown[]) {
      if (!isObject(item) || typeof item.theme !== 'string' || typeof item.description !== 'string') return mismatch;
      const refs = item.questionThemes;
      if (!Array.isArray(refs) || !refs.every((ref) => typeof ref === 'string') || !Array.isArray(item.quotes)) return mismatch;
      const quotes = item.quotes as unknown[];
      if (!quotes.every((q) => isObject(q) && typeof q.answer === 'string' && typeof q.text === 'string' && (q.translation === undefined || q.translation === null || typeof q.translation === 'string'))) return mismatch;
      const label = modelText(item.theme, LABEL_CHARS);
      const members = new Set<number>();
      for (const ref of refs as string[]) for (const doc of membersOf.get(ref) ?? []) members.add(doc);
      if (!label || !members.size) continue;
      let draft = drafts.find((d) => d.theme.toLowerCase() === label.toLowerCase());
      if (!draft) {
        if (drafts.length >= MAX_THEMES_ACROSS) continue;
        drafts.push((draft = { theme: label, description: modelText(item.description, DESCRIPTION_CHARS), members: new Set(), quotes: [] }));
      }
      for (const doc of members) draft.members.add(doc);
      for (const quote of quotes as { answer: string; text: string; translation?: string | null }[]) {
        if (work.yielder.due()) await work.yielder.giveWay();
        const doc = docOfId(quote.answer, answers.length);
        if (doc === undefined || !draft.members.has(doc) || !isVerbatimQuote(quote, { role: 'interviewee', content: answers[doc].answer })) {
          work.dropped++;
          continue;
        }
        if (draft.quotes.length < MAX_QUOTES && !draft.quotes.some((kept) => kept.doc === doc && kept.text === quote.text)) {
          const given = quote.translation ?? translated.get(`${answers[doc].linkID}#${answers[doc].turnIndex}#${quote.text}`) ?? null;
          draft.quotes.push({ doc, text: quote.text, translation: this.translationOf(doc, given, work) });
        }
      }
    }
    if (!drafts.length) return failure('none of the themes the model gave brought together a question theme it was given');
    const ranked = drafts
      .map((d, order) => ({ d, order, count: distinctLinks(d.members, answers) }))
      .sort((a, b) => b.count - a.count || a.order - b.order)
      .map(({ d }) => d);
    const themes = ranked.map((d, i): Theme => {
      const themeID = `all-t${i + 1}`;
      for (const doc of d.members) work.codes[doc].acrossThemeIDs.push(themeID);
      return {
        themeID,
        theme: d.theme,
        description: d.description,
        keyphrases: [],
        answers: 0,
        mentions: 0,
        quotes: d.quotes.map(({ doc, text, translation }) => ({ linkID: answers[doc].linkID, turnIndex: answers[doc].turnIndex, text, translation })),
        emerging: false,
        language: work.language,
      };
    });
    return { ok: true, value: themes };
  }

  /** A quote's translation: the model's, for an answer in another language than the report's; null for one already in it. */
  private translationOf(doc: number, translation: unknown, work: Work): string | null {
    return work.input.answers[doc].language === work.language ? null : quoteTranslation(translation);
  }

  private ask(messages: ChatMessage[], format: JsonFormat, run: AnalysisRun) {
    return askForJson(this.config, messages, format, { responseBytes: this.responseBytes, stop: run.signal });
  }

  private logFallback(part: string, reason: string): void {
    this.logger.warn({ msg: 'report part is the offline analysis', agent: this.name, part, reason });
  }
}

function fromCodebook(theme: CodebookTheme, i: number): Draft {
  return { key: `T${i + 1}`, theme: theme.theme, description: theme.description ?? '', keyphrases: [], codebook: i + 1, emerging: false, examples: theme.examples, quotes: [] };
}

const promptTheme = (d: Draft): PromptTheme => ({ id: d.key, theme: d.theme, description: d.description, examples: d.examples });

/** The offline analysis' code of each answer, when it coded every answer in the input's order. */
function offlineCodesOf(offline: AnalysisResult, answers: readonly AnalysisAnswer[]): (AnswerCode | undefined)[] {
  const codes = offline.codes ?? [];
  if (codes.length !== answers.length) return answers.map(() => undefined);
  return answers.map((a, doc) => (codes[doc].linkID === a.linkID && codes[doc].turnIndex === a.turnIndex ? codes[doc] : undefined));
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
  return rows.map((row) => ({ questionIndex: row.questionIndex, question: row.question, docs: byIndex.get(row.questionIndex) ?? [], row }));
}

/** The model's {"codes": [...], "quotes": [...]} held to the schema asked for; anything else is a failure of the whole answer. */
/** The model's {"translations": [...]} held to the schema asked for. */
function readTranslations(value: unknown): Outcome<{ answer: string; text: string }[]> {
  if (!isObject(value) || !Array.isArray(value.translations)) return failure("the model's answer did not match the requested JSON schema");
  const items = value.translations as unknown[];
  if (!items.every((item) => isObject(item) && typeof item.answer === 'string' && typeof item.text === 'string')) return failure("the model's answer did not match the requested JSON schema");
  return { ok: true, value: items as { answer: string; text: string }[] };
}

function readCodes(value: unknown): Outcome<{ codes: { answer: string; themes: string[] }[]; quotes: { theme: string; answer: string; text: string; translation: unknown }[] }> {
  const mismatch = failure("the model's answer did not match the requested JSON schema");
  if (!isObject(value) || !Array.isArray(value.codes) || !Array.isArray(value.quotes)) return mismatch;
  const codes: { answer: string; themes: string[] }[] = [];
  for (const item of value.codes as unknown[]) {
    if (!isObject(item) || typeof item.answer !== 'string' || !Array.isArray(item.themes) || !item.themes.every((t) => typeof t === 'string')) return mismatch;
    codes.push({ answer: item.answer, themes: item.themes as string[] });
  }
  const quotes: { theme: string; answer: string; text: string; translation: unknown }[] = [];
  for (const item of value.quotes as unknown[]) {
    if (!isObject(item) || typeof item.theme !== 'string' || typeof item.answer !== 'string' || typeof item.text !== 'string') return mismatch;
    quotes.push({ theme: item.theme, answer: item.answer, text: item.text, translation: item.translation });
  }
  return { ok: true, value: { codes, quotes } };
}

/** `size` of the docs at even steps (all of them when fewer). */
function evenSample(docs: readonly number[], size: number): number[] {
  if (docs.length <= size) return [...docs];
  return Array.from({ length: size }, (_, i) => docs[Math.floor((i * docs.length) / size)]);
}

/** The language of the answers when they share one; null when they are of several (or none). */
function languageOf(docs: Iterable<number>, answers: readonly AnalysisAnswer[]): string | null {
  let language: string | null = null;
  for (const doc of docs) {
    if (language === null) language = answers[doc].language;
    else if (answers[doc].language !== language) return null;
  }
  return language;
}

function distinctLinks(docs: Iterable<number>, answers: readonly AnalysisAnswer[]): number {
  const links = new Set<string>();
  for (const doc of docs) links.add(answers[doc].linkID);
  return links.size;
}

/** `a17` → the input's answer 16, when there is one. */
function docOfId(id: string, count: number): number | undefined {
  const match = /^a([1-9][0-9]{0,9})$/.exec(id);
  const doc = match ? Number(match[1]) - 1 : -1;
  return doc >= 0 && doc < count ? doc : undefined;
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
