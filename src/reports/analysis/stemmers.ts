import { baseLanguage } from '../../languages/languages';

/**
 * Snowball stemmers of nlp.js (@nlpjs/lang-*, MIT): "cards" and "card", "arrived" and "arrival" are one
 * word for grouping and for a label's "found together" count. The packages are plain JavaScript with no
 * typings; each exports its stemmer class by name. Languages without one (Japanese, Chinese: words are
 * not inflected by suffixes the way Snowball reads them) compare words as they are.
 */
interface Stemmer {
  stemWord(word: string): string;
}
type StemmerClass = new () => Stemmer;

/* eslint-disable @typescript-eslint/no-require-imports -- the packages ship CommonJS without typings */
const LOADERS: Readonly<Record<string, () => StemmerClass>> = {
  en: () => (require('@nlpjs/lang-en-min') as { StemmerEn: StemmerClass }).StemmerEn,
  es: () => (require('@nlpjs/lang-es') as { StemmerEs: StemmerClass }).StemmerEs,
  fr: () => (require('@nlpjs/lang-fr') as { StemmerFr: StemmerClass }).StemmerFr,
  de: () => (require('@nlpjs/lang-de') as { StemmerDe: StemmerClass }).StemmerDe,
  it: () => (require('@nlpjs/lang-it') as { StemmerIt: StemmerClass }).StemmerIt,
  nl: () => (require('@nlpjs/lang-nl') as { StemmerNl: StemmerClass }).StemmerNl,
  pt: () => (require('@nlpjs/lang-pt') as { StemmerPt: StemmerClass }).StemmerPt,
  pl: () => (require('@nlpjs/lang-pl') as { StemmerPl: StemmerClass }).StemmerPl,
  tr: () => (require('@nlpjs/lang-tr') as { StemmerTr: StemmerClass }).StemmerTr,
  ar: () => (require('@nlpjs/lang-ar') as { StemmerAr: StemmerClass }).StemmerAr,
};
/* eslint-enable @typescript-eslint/no-require-imports */

const stemmers = new Map<string, ((term: string) => string) | null>();

/** The stemmer of a language tag's base language, or null when it has none (terms compare as they are). */
export function stemmerFor(tag: string): ((term: string) => string) | null {
  const language = baseLanguage(tag);
  let stem = stemmers.get(language);
  if (stem === undefined) {
    const load = LOADERS[language];
    if (load) {
      const stemmer = new (load())();
      // A stem is never empty: a word the stemmer would erase stays as it is.
      stem = (term: string) => stemmer.stemWord(term) || term;
    } else {
      stem = null;
    }
    stemmers.set(language, stem);
  }
  return stem;
}
