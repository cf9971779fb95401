import { countWords } from '../../interviewers/default-interviewer';
import type { AnalysisAnswer, AnalysisOptions, AnalysisQuestion, AnalysisResult, AnswerCode, Quote, QuestionReport, Theme } from './analysis.types';
import { buildCorpus, distinctLinks, type Corpus } from './corpus';
import { excerpt } from './excerpt';
import { countPhrases, phraseSpread, rankKeyphrases, type PhraseCounts, type PhraseSpread } from './keyphrases';
import { QUOTE_MIN_WORDS } from './quotes';
import { median, NEGATIVE_AT_MOST, POSITIVE_AT_LEAST, sentimentSplit } from './stats';
import { stemmerFor } from './stemmers';
import { baseLanguage } from '../../languages/languages';
import { codeAnswers, type Coding } from './themes';
import { forEachTerm, termRules } from './tokenize';
import { Yielder } from './yielder';

export { sentimentSplit } from './stats';
export { Yielder } from './yielder';

export interface OfflineAnalysisOptions {
  yielder?: Yielder;
  /**
   * Progress in answers analysed. Each answer is analysed twice, among its question's answers and
   * among the whole interview's, so `total` is twice the number of answers.
   */
  onProgress?: (done: number, total: number) => void;
}

/** What a report asks when it says nothing: 12 themes a question at most, no codebook. */
export const DEFAULT_ANALYSIS_OPTIONS: AnalysisOptions = { maxThemes: 12, codebook: [] };

/** What the offline analysis reads: the questions, the answers, the report's options and the product's name. */
export interface OfflineAnalysisInput {
  questions: AnalysisQuestion[];
  answers: AnalysisAnswer[];
  options?: AnalysisOptions;
  /** Its words alone never name a theme, nor make answers alike. */
  productName?: string | null;
}

/** The answers of one report row: a guideline question's, or (question null) the unattributed ones. */
interface Group {
  questionIndex: number | null;
  question: string | null;
  docs: number[];
}

/**
 * The offline analysis of an interview's answers: deterministic (the same answers in the same order
 * give the same result), with no network, and yielding to the event loop as it goes so that it can run
 * inside the service's process. One report per guideline question, in question order, answered or not,
 * and one for the unattributed answers when there are any; themes across all the answers. Every answer
 * is coded: with one theme of its question or with none (`other`), and likewise across the interview.
 */
export async function analyzeOffline(input: OfflineAnalysisInput, options: OfflineAnalysisOptions = {}): Promise<AnalysisResult> {
  const yielder = options.yielder ?? new Yielder();
  const { answers } = input;
  const analysis = input.options ?? DEFAULT_ANALYSIS_OPTIONS;
  const total = answers.length * 2;
  let done = 0;
  const progress = (count: number) => {
    done += count;
    options.onProgress?.(done, total);
  };

  const corpus = await buildCorpus(answers, yielder);
  const excluded = productStems(corpus, input.productName ?? null);
  const groups = groupByQuestion(input.questions, answers);
  const counts: PhraseCounts[] = [];
  for (const group of groups) counts.push(await countPhrases(corpus, group.docs, yielder));
  const spread = phraseSpread(counts);

  const questionThemes = new Int32Array(answers.length).fill(-1);
  const questions: QuestionReport[] = [];
  const codings: Coding[] = [];
  for (const [i, group] of groups.entries()) {
    const codebook = group.questionIndex === null ? [] : (analysis.codebook.find((q) => q.questionIndex === group.questionIndex)?.themes ?? []);
    const prefix = group.questionIndex === null ? 'qx' : `q${group.questionIndex}`;
    const coding = await codeAnswers(corpus, group.docs, { maxThemes: analysis.maxThemes, codebook, prefix, excluded }, yielder);
    group.docs.forEach((d, j) => (questionThemes[d] = coding.codes[j]));
    codings.push(coding);
    questions.push(await reportOn(corpus, group, counts[i], spread, coding, yielder));
    progress(group.docs.length);
  }
  const everyDoc = answers.map((_, d) => d);
  const across = await codeAnswers(corpus, everyDoc, { maxThemes: analysis.maxThemes, codebook: [], prefix: 'all', excluded }, yielder);
  progress(answers.length);

  const codingOf = new Map<number, Coding>();
  groups.forEach((group, i) => group.docs.forEach((d) => codingOf.set(d, codings[i])));
  const codes: AnswerCode[] = answers.map((answer, d) => {
    const own = questionThemes[d];
    const acrossTheme = across.codes[d];
    return {
      linkID: answer.linkID,
      turnIndex: answer.turnIndex,
      questionIndex: answer.questionIndex,
      themeIDs: own >= 0 ? [codingOf.get(d)!.themes[own].themeID] : [],
      acrossThemeIDs: acrossTheme >= 0 ? [across.themes[acrossTheme].themeID] : [],
    };
  });
  return { questions, themes: across.themes, droppedQuotes: 0, notes: notesOn(corpus, input.questions), codes };
}

/** The stems of the product's name in every language of the answers (a name is written alike in all of them). */
function productStems(corpus: Corpus, productName: string | null): Set<number> {
  const stems = new Set<number>();
  if (!productName) return stems;
  const languages = new Set(corpus.answers.map((answer) => baseLanguage(answer.language)));
  for (const language of languages) {
    const stem = stemmerFor(language);
    forEachTerm(productName, termRules(language), (term) => {
      if (term === null) return;
      const id = corpus.stemIds.get(`${language}\u0000${stem ? stem(term) : term}`);
      if (id !== undefined) stems.add(id);
    });
  }
  return stems;
}

/** The report on one question's answers, analysed on their own (keyphrases weighed within them alone). */
export async function analyzeQuestion(question: AnalysisQuestion | null, answers: AnalysisAnswer[], yielder: Yielder, maxThemes = DEFAULT_ANALYSIS_OPTIONS.maxThemes): Promise<QuestionReport> {
  const corpus = await buildCorpus(answers, yielder);
  const docs = answers.map((_, d) => d);
  const counts = await countPhrases(corpus, docs, yielder);
  const group = { questionIndex: question?.questionIndex ?? null, question: question?.question ?? null, docs };
  const prefix = group.questionIndex === null ? 'qx' : `q${group.questionIndex}`;
  const coding = await codeAnswers(corpus, docs, { maxThemes, codebook: [], prefix, excluded: new Set() }, yielder);
  return reportOn(corpus, group, counts, phraseSpread([counts]), coding, yielder);
}

/** Themes across all the given answers, whatever question they answer. */
export async function themesAcross(answers: AnalysisAnswer[], yielder: Yielder, maxThemes = DEFAULT_ANALYSIS_OPTIONS.maxThemes): Promise<Theme[]> {
  const corpus = await buildCorpus(answers, yielder);
  return (await codeAnswers(corpus, answers.map((_, d) => d), { maxThemes, codebook: [], prefix: 'all', excluded: new Set() }, yielder)).themes;
}

/**
 * The guideline questions in order, each with its answers, then the unattributed answers if any. An
 * answer naming a question the interview does not have counts as unattributed (and a note says so).
 */
function groupByQuestion(questions: readonly AnalysisQuestion[], answers: readonly AnalysisAnswer[]): Group[] {
  const ordered = [...questions].sort((a, b) => a.questionIndex - b.questionIndex);
  const byIndex = new Map<number, Group>(ordered.map((q) => [q.questionIndex, { questionIndex: q.questionIndex, question: q.question, docs: [] }]));
  const unattributed: Group = { questionIndex: null, question: null, docs: [] };
  answers.forEach((answer, d) => ((answer.questionIndex === null ? undefined : byIndex.get(answer.questionIndex)) ?? unattributed).docs.push(d));
  const groups = [...byIndex.values()];
  return unattributed.docs.length ? [...groups, unattributed] : groups;
}

async function reportOn(corpus: Corpus, group: Group, counts: PhraseCounts, spread: PhraseSpread, coding: Coding, yielder: Yielder): Promise<QuestionReport> {
  const answers = group.docs.map((d) => corpus.answers[d]);
  const others = group.docs.filter((_, j) => coding.codes[j] < 0);
  return {
    questionIndex: group.questionIndex,
    question: group.question,
    answered: distinctLinks(corpus, group.docs),
    medianWords: median(answers.map((answer) => answer.words)),
    sentiment: sentimentSplit(answers.map((answer) => answer.sentiment)),
    keyphrases: await rankKeyphrases(corpus, counts, spread, yielder),
    themes: coding.themes,
    quotes: await toneQuotes(answers, yielder),
    coverage: group.docs.length ? Math.round(((group.docs.length - others.length) / group.docs.length) * 10_000) / 10_000 : null,
    other: { answers: distinctLinks(corpus, others), mentions: others.length },
  };
}

/**
 * The most positive and the most negative scored answers, quoted at the sentence that carries their
 * sentiment; neutral answers are not quoted, nor answers too short to quote. Ties go to the earlier answer.
 */
async function toneQuotes(answers: readonly AnalysisAnswer[], yielder: Yielder): Promise<Quote[]> {
  const quotes: Quote[] = [];
  for (const tone of [1, -1] as const) {
    const candidates = answers
      .filter((answer) => answer.sentiment !== null && (tone === 1 ? answer.sentiment >= POSITIVE_AT_LEAST : answer.sentiment <= NEGATIVE_AT_MOST))
      .map((answer, order) => ({ answer, order }))
      .sort((a, b) => tone * (b.answer.sentiment! - a.answer.sentiment!) || a.order - b.order);
    if (yielder.due()) await yielder.giveWay();
    for (const { answer } of candidates) {
      if (yielder.due()) await yielder.giveWay();
      if (countWords(answer.answer) < QUOTE_MIN_WORDS) continue;
      const text = excerpt(answer.answer, answer.language, { tone });
      if (text === null) continue;
      quotes.push({ linkID: answer.linkID, turnIndex: answer.turnIndex, text });
      break;
    }
  }
  return quotes;
}

function notesOn(corpus: Corpus, questions: readonly AnalysisQuestion[]): string[] {
  const notes: string[] = [];
  const languages = [...corpus.unlistedLanguages].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [language, count] of languages) {
    notes.push(`${count} ${count === 1 ? 'answer' : 'answers'} in "${language}" had no stop-word list: common words of that language may show among keyphrases and theme names.`);
  }
  const known = new Set(questions.map((q) => q.questionIndex));
  const strays = new Set(corpus.answers.filter((a) => a.questionIndex !== null && !known.has(a.questionIndex)).map((a) => a.questionIndex));
  if (strays.size) {
    notes.push(`Answers to questions the interview does not list (${[...strays].sort((a, b) => a! - b!).join(', ')}) are reported with the unattributed answers.`);
  }
  return notes;
}
