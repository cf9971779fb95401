/**
 * The words of erased answers, as a report must no longer hold them: any four consecutive words of
 * one (contract, "Model-written text and erasure"). Words are compared as a reader would: letters and
 * digits, case folded, punctuation and spacing ignored. Chinese and Japanese are written without
 * spaces; there each character is a word of its own, and eight of them (about four words, as the
 * built-in interviewer counts two characters a word) make a run.
 */

/** Han, Hiragana, Katakana (and their marks): scripts written without spaces. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const RUN = 4;
const CJK_RUN = 8;

/** The text's words, case folded; a run of Chinese or Japanese characters becomes one word per character. */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (!CJK.test(word)) {
      out.push(word);
      continue;
    }
    let latin = '';
    for (const char of word) {
      if (CJK.test(char)) {
        if (latin) out.push(latin);
        latin = '';
        out.push(char);
      } else latin += char;
    }
    if (latin) out.push(latin);
  }
  return out;
}

const isCjk = (word: string) => word.length === 1 && CJK.test(word);

/** Every run of consecutive words of `words` a check compares: four words, or eight CJK characters. */
function* runsOf(words: readonly string[]): Generator<string> {
  for (let i = 0; i + RUN <= words.length; i++) {
    const four = words.slice(i, i + RUN);
    if (!four.every(isCjk)) yield four.join(' ');
  }
  for (let i = 0; i + CJK_RUN <= words.length; i++) {
    const eight = words.slice(i, i + CJK_RUN);
    if (eight.every(isCjk)) yield eight.join(' ');
  }
}

export class ErasedWords {
  private readonly runs = new Set<string>();
  private readonly names = new Set<string>();

  /**
   * `texts`: the erased answers. `names`: the erased people's names: a word of a name that the person
   * also said in an answer (they introduced themselves) counts on its own, wherever it stands.
   */
  constructor(texts: Iterable<string>, names: Iterable<string> = []) {
    const said = new Set<string>();
    for (const text of texts) {
      const words = wordsOf(text);
      for (const word of words) said.add(word);
      for (const run of runsOf(words)) this.runs.add(run);
    }
    for (const name of names) for (const word of wordsOf(name)) if (word.length >= 3 && said.has(word)) this.names.add(word);
  }

  get empty(): boolean {
    return this.runs.size === 0 && this.names.size === 0;
  }

  /** Whether `text` holds four consecutive words of an erased answer (eight characters in Chinese or Japanese), or an erased person's name. */
  in(text: string): boolean {
    if (this.empty) return false;
    const words = wordsOf(text);
    if (words.some((word) => this.names.has(word))) return true;
    for (const run of runsOf(words)) if (this.runs.has(run)) return true;
    return false;
  }
}
