import { countWords } from '../../interviewers/default-interviewer';
import type { AnalysisAnswer, AnalysisQuestion, AnalysisResult, Quote, QuestionReport, Theme } from './analysis.types';
import { buildCorpus, distinctLinks, type Corpus } from './corpus';
import { excerpt } from './excerpt';
import { countPhrases, phraseSpread, rankKeyphrases, type PhraseCounts, type PhraseSpread } from './keyphrases';
import { QUOTE_MIN_WORDS } from './quotes';
import { median, NEGATIVE_AT_MOST, POSITIVE_AT_LEAST, sentimentSplit } from './stats';
import { findThemes, MAX_THEMES_ACROSS, MAX_THEMES_PER_QUESTION } from './themes';
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
 * and one for the unattributed answers when there are any; themes across all the answers.
 */
export async function analyzeOffline(
  input: { questions: AnalysisQuestion[]; answers: AnalysisAnswer[] },
  options: OfflineAnalysisOptions = {},
): Promise<AnalysisResult> {
  const yielder = options.yielder ?? new Yielder();
  const { answers } = input;
  const total = answers.length * 2;
  let done = 0;
  const progress = (count: number) => {
    done += count;
    options.onProgress?.(done, total);
  };

  const corpus = await buildCorpus(answers, yielder);
  const groups = groupByQuestion(input.questions, answers);
  const counts: PhraseCounts[] = [];
  for (const group of groups) counts.push(await countPhrases(corpus, group.docs, yielder));
  const spread = phraseSpread(counts);

  const questions: QuestionReport[] = [];
  for (const [i, group] of groups.entries()) {
    questions.push(await reportOn(corpus, group, counts[i], spread, yielder));
    progress(group.docs.length);
  }
  const themes = await findThemes(corpus, answers.map((_, d) => d), MAX_THEMES_ACROSS, yielder);
  progress(answers.length);
  // codes: a compile shim until the analysis branch's coding lands (issue 29).
  return { questions, themes, droppedQuotes: 0, notes: notesOn(corpus, input.questions), codes: [] };
}

/** The report on one question's answers, analysed on their own (keyphrases weighed within them alone). */
export async function analyzeQuestion(question: AnalysisQuestion | null, answers: AnalysisAnswer[], yielder: Yielder): Promise<QuestionReport> {
  const corpus = await buildCorpus(answers, yielder);
  const docs = answers.map((_, d) => d);
  const counts = await countPhrases(corpus, docs, yielder);
  const group = { questionIndex: question?.questionIndex ?? null, question: question?.question ?? null, docs };
  return reportOn(corpus, group, counts, phraseSpread([counts]), yielder);
}

/** Themes across all the given answers, whatever question they answer. */
export async function themesAcross(answers: AnalysisAnswer[], yielder: Yielder): Promise<Theme[]> {
  const corpus = await buildCorpus(answers, yielder);
  return findThemes(corpus, answers.map((_, d) => d), MAX_THEMES_ACROSS, yielder);
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

async function reportOn(corpus: Corpus, group: Group, counts: PhraseCounts, spread: PhraseSpread, yielder: Yielder): Promise<QuestionReport> {
  const answers = group.docs.map((d) => corpus.answers[d]);
  return {
    questionIndex: group.questionIndex,
    question: group.question,
    answered: distinctLinks(corpus, group.docs),
    medianWords: median(answers.map((answer) => answer.words)),
    sentiment: sentimentSplit(answers.map((answer) => answer.sentiment)),
    keyphrases: await rankKeyphrases(corpus, counts, spread, yielder),
    themes: await findThemes(corpus, group.docs, MAX_THEMES_PER_QUESTION, yielder),
    quotes: await toneQuotes(answers, yielder),
    // Compile shims until the analysis branch's coding lands (issue 29).
    coverage: null,
    other: { answers: 0, mentions: 0 },
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
