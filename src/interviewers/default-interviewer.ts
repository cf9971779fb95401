import { LRUCache } from 'lru-cache';
import { splitName } from '../common/names';
import { FALLBACK_LANGUAGE } from '../languages/languages';
import { translate } from '../languages/messages';
import { AgentTurn, InterviewBrief, InterviewSummary, InterviewerAgent, Turn } from './interviewer-agent';
import { INTERVIEWER_LIMITS } from './interviewer.limits';

/**
 * Markers a guideline line may start with, stripped before the line is read: bullets, numbering,
 * checkboxes, headings. Applied repeatedly, so "- 1) Why?" becomes "Why?". ASCII bullets and letters
 * need a space after them, so that "-5 °C?" or "A.I. helps?" keep their first character.
 */
const LINE_MARKERS: readonly RegExp[] = [
  /^#{1,6}\s+/,
  /^>\s*/,
  /^[-*+]\s+/,
  /^[•◦‣▪▫●○■□–—·・]\s*/,
  /^\[[ xX]?\]\s+/,
  /^Q\s?\d{1,3}\s*[:.)–-]\s*/i,
  /^[(（]?\p{Nd}{1,3}[.)．）:：](?!\p{Nd})\s*/u,
  /^\p{Nd}{1,3}\s?[-–]\s+/u,
  /^[(（]?(?:[A-Za-z]|[ivxlc]{2,5}|[IVXLC]{2,5})[.)）]\s+/,
  /^[\u2460-\u2473\u2776-\u2793]\s*/,
];

/** Latin, full-width (Chinese, Japanese) and Arabic question marks. */
const QUESTION_END = /[?？؟﹖]$/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The line without its list markers and surrounding white space. */
function stripMarkers(line: string): string {
  let text = line.trim();
  for (let changed = true; changed; ) {
    changed = false;
    for (const marker of LINE_MARKERS) {
      const next = text.replace(marker, '').trim();
      if (next !== text && next !== '') {
        text = next;
        changed = true;
      }
    }
  }
  return text;
}

/** Guidelines read: their questions and their notes, in order. */
interface ReadGuidelines {
  questions: readonly string[];
  notes: readonly string[];
}

/**
 * Guidelines read, kept by their text. The room reads its interview's guidelines on every answer (the
 * agent's next question, the progress shown); stripping the markers of each line again took about
 * 0.2 ms of each answer to a 300-question interview. Keyed by the text itself, so an edited interview
 * is read anew. Bounded by characters held, each entry counted as three times its text (the key, and
 * lines that hold at most the text again, with room to spare): 8 M characters, over 50 interviews of
 * the longest guidelines allowed, over a thousand of 2,000 characters.
 */
const readCache = new LRUCache<string, ReadGuidelines>({ maxSize: 8_000_000, sizeCalculation: (_, text) => 3 * text.length + 1 });

function read(guidelines: string): ReadGuidelines {
  let found = readCache.get(guidelines);
  if (!found) {
    const lines = guidelines
      .split(/\r\n|\r|\n|\u2028|\u2029/)
      .map(stripMarkers)
      .filter((line) => LETTER_OR_DIGIT.test(line));
    found = { questions: lines.filter((line) => QUESTION_END.test(line)), notes: lines.filter((line) => !QUESTION_END.test(line)) };
    readCache.set(guidelines, found);
  }
  return found;
}

/**
 * The questions of the guidelines, in order: each line that ends with a question mark once its list
 * markers are stripped, asked as written. Every other line is the research team's note to itself.
 */
export function questionsOf(guidelines: string | null): string[] {
  // A copy: the caller may change its list, never the one kept.
  return guidelines ? [...read(guidelines).questions] : [];
}

/**
 * The research team's notes: every line of the guidelines that is not a question (markers stripped,
 * blank lines and lines without a letter or digit left out). An LLM interviewer is guided by them, and
 * they never reach the interviewee.
 */
export function notesOf(guidelines: string | null): string[] {
  return guidelines ? [...read(guidelines).notes] : [];
}

/** How many general questions every catalog holds (agent.general.1 …): question indexes must not depend on the language. */
export const GENERAL_QUESTION_COUNT = 5;

/** Asked when the guidelines hold no question, in the interview's language. */
export function generalQuestions(productName: string, language: string = FALLBACK_LANGUAGE): string[] {
  return Array.from({ length: GENERAL_QUESTION_COUNT }, (_, i) => translate(language, `agent.general.${i + 1}`, { product: productName }));
}

/**
 * The questions an interview asks, 0-based, as GET /v1/interviews/getQuestions lists them: the
 * guidelines' questions, or the general set when they hold none. Turns' question indexes refer here.
 */
export function interviewQuestions(guidelines: string | null, productName: string, language: string = FALLBACK_LANGUAGE): string[] {
  const found = questionsOf(guidelines);
  return found.length > 0 ? found : generalQuestions(productName, language);
}

/**
 * The questions as an invite held in `language` is asked them: its translation's questions when the
 * interview has one in that language (validated to line up with the guidelines'), else the guidelines'
 * as written; the general set in that language when they hold none. Indexes are the same in every language.
 */
export function askedQuestions(
  interview: { guidelines: string | null; translations: Readonly<Record<string, string>> | null },
  productName: string,
  language: string,
): string[] {
  return interviewQuestions(translationOf(interview, language) ?? interview.guidelines, productName, language);
}

/** The guidelines in `language` when the interview has them translated into it, else null. */
export function translationOf(interview: { translations: Readonly<Record<string, string>> | null }, language: string): string | null {
  const translations = interview.translations;
  return translations && Object.hasOwn(translations, language) ? translations[language] : null;
}

/** Scripts written without spaces: Chinese and Japanese; Thai, Lao, Khmer and Burmese. */
const CJK_CHARS = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\u30fc';
const SOUTHEAST_ASIAN_CHARS = '\\p{sc=Thai}\\p{sc=Lao}\\p{sc=Khmer}\\p{sc=Myanmar}';
const CJK = new RegExp(`[${CJK_CHARS}]`, 'u');
const SOUTHEAST_ASIAN = new RegExp(`[${SOUTHEAST_ASIAN_CHARS}]`, 'u');
/** Any character of them: only then must a count look at each character. */
const UNSPACED_SCRIPT = new RegExp(`[${CJK_CHARS}${SOUTHEAST_ASIAN_CHARS}]`, 'u');
/** Characters per word in scripts written without spaces (typical word lengths, rounded). */
const CJK_CHARS_PER_WORD = 2;
const SOUTHEAST_ASIAN_LETTERS_PER_WORD = 4;

/**
 * Words in an answer: pieces between white space that hold a letter or digit. Chinese and Japanese
 * (and Thai, Lao, Khmer, Burmese) are written without spaces, so their characters count as words at
 * typical word lengths: 2 characters a word for Chinese and Japanese, 4 letters for the others.
 * Deliberately not Intl.Segmenter: the script is replayed from the transcript on every turn, so the
 * count must not change when a new Node release brings another ICU dictionary.
 */
export function countWords(text: string): number {
  return UNSPACED_SCRIPT.test(text) ? countWordsPerCharacter(text) : countSpacedWords(text);
}

/** From a piece's first letter or digit to its end: one match per piece that holds one. */
const SPACED_WORD = /[\p{L}\p{N}]\S*/gu;

/**
 * The count when no character is of a script written without spaces: the pieces that hold a letter or
 * digit, counted by a regular expression's test, which allocates nothing. Exports and reports count
 * every answer's words; character by character, that was a quarter of an export's CPU time.
 */
function countSpacedWords(text: string): number {
  let words = 0;
  SPACED_WORD.lastIndex = 0;
  while (SPACED_WORD.test(text)) words++;
  return words;
}

/** The general count, character by character (exported for the test that pins the fast path to it). */
export function countWordsPerCharacter(text: string): number {
  let words = 0;
  for (const piece of text.split(/\s+/)) {
    let cjk = 0;
    let southeastAsian = 0;
    let other = false;
    for (const char of piece) {
      if (CJK.test(char)) cjk++;
      else if (SOUTHEAST_ASIAN.test(char)) southeastAsian += /\p{L}/u.test(char) ? 1 : 0;
      else other ||= LETTER_OR_DIGIT.test(char);
    }
    words += Math.ceil(cjk / CJK_CHARS_PER_WORD) + Math.ceil(southeastAsian / SOUTHEAST_ASIAN_LETTERS_PER_WORD) + (other ? 1 : 0);
  }
  return words;
}

/** Where the script stands: the turn to say next. */
export type ScriptStep =
  | { kind: 'question'; index: number }
  | { kind: 'probe'; index: number }
  | { kind: 'anything-else' }
  | { kind: 'closing' };

/**
 * Replays the interviewee's answers through the script: the opening asks the first question; a short
 * answer to a question gets one probe, and the answer to the probe moves on whatever its length; after
 * the last question comes "anything else?", and after its answer the closing (said again if asked again).
 */
export function scriptStep(questionCount: number, answers: readonly string[]): ScriptStep {
  let step: ScriptStep = { kind: 'question', index: 0 };
  for (const answer of answers) {
    if (step.kind === 'question' && countWords(answer) < INTERVIEWER_LIMITS.probeBelowWords) {
      step = { kind: 'probe', index: step.index };
    } else if (step.kind === 'question' || step.kind === 'probe') {
      step = step.index + 1 < questionCount ? { kind: 'question', index: step.index + 1 } : { kind: 'anything-else' };
    } else {
      step = { kind: 'closing' };
    }
  }
  return step;
}

/** Probes in turn, one per question, so that two probes in a row do not repeat each other (agent.probe.1 …). */
const PROBE_COUNT = 3;

/** The first word of the name from the start form, or null. */
export function firstNameOf(fullName: string | null): string | null {
  return splitName(fullName).first;
}

/** The thank-you that ends an interview; also what an LLM agent says when its turns run out. */
export function closingMessage(brief: InterviewBrief): string {
  const name = firstNameOf(brief.intervieweeName);
  return name ? translate(brief.language, 'agent.closing', { name, product: brief.productName }) : translate(brief.language, 'agent.closingNoName', { product: brief.productName });
}

/**
 * The built-in `default` agent: deterministic and offline. It asks the guidelines' questions (or a
 * general set about the product when they have none), one per turn, and never shows the team's notes.
 * Its state is the transcript itself (see scriptStep), so any process can take any turn.
 */
export class DefaultInterviewer implements InterviewerAgent {
  readonly kind = 'builtin';
  readonly description =
    'Built in: asks the questions written in the guidelines (lines ending with a question mark), one at a time, ' +
    'probes short answers once, then asks whether there is anything else and ends. Works offline.';

  async next(brief: InterviewBrief, transcript: readonly Turn[]): Promise<AgentTurn> {
    // In the invite's language when the team translated the guidelines into it.
    const questions = interviewQuestions(brief.translation ?? brief.guidelines, brief.productName, brief.language);
    const answers = transcript.filter((turn) => turn.role === 'interviewee').map((turn) => turn.content);
    const step = scriptStep(questions.length, answers);
    switch (step.kind) {
      case 'question':
        return { message: answers.length === 0 ? joinSentences(greeting(brief), questions[0]) : questions[step.index], done: false, questionIndex: step.index };
      case 'probe':
        return { message: translate(brief.language, `agent.probe.${(step.index % PROBE_COUNT) + 1}`), done: false, questionIndex: step.index };
      case 'anything-else':
        return { message: translate(brief.language, 'agent.anythingElse', { product: brief.productName }), done: false, questionIndex: null };
      case 'closing':
        return { message: closingMessage(brief), done: true, questionIndex: null };
    }
  }

  async summarize(): Promise<InterviewSummary | null> {
    return null;
  }
}

/** Two sentences as one turn: Chinese and Japanese put no space after their full stop. */
function joinSentences(first: string, second: string): string {
  return /[。！？]$/.test(first) ? `${first}${second}` : `${first} ${second}`;
}

function greeting(brief: InterviewBrief): string {
  const name = firstNameOf(brief.intervieweeName);
  return name ? translate(brief.language, 'agent.greeting', { name, product: brief.productName }) : translate(brief.language, 'agent.greetingNoName', { product: brief.productName });
}

/**
 * Where the built-in agent stands in its questions, for the room's "Question k of n": the questions
 * asked so far (1 after the opening), all of them once it has moved past the last.
 */
export function scriptProgress(guidelines: string | null, productName: string, answers: readonly string[]): { asked: number; total: number } {
  const total = interviewQuestions(guidelines, productName).length;
  const step = scriptStep(total, answers);
  return { asked: step.kind === 'question' || step.kind === 'probe' ? step.index + 1 : total, total };
}
