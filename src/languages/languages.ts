/**
 * The languages the interview room and the built-in interviewer speak: each has a message catalog in
 * ./catalogs (see messages.ts). The tag is what an interview's `language`, `?lang=` and the invite's
 * recorded language hold; the name is the language's own, as a person choosing it would look for it.
 */
const TAGS = ['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'tr', 'ja', 'zh', 'ar'] as const;

export type Language = (typeof TAGS)[number];
export type Direction = 'ltr' | 'rtl';

/**
 * Names and writing direction come from the Unicode CLDR data Node carries (Intl), not from a table of
 * ours: one description of each language. CLDR gives a language's own name as it stands mid-sentence
 * ("español"); a menu entry starts with a capital, as CLDR's own rule for menus (uiListOrMenu) says.
 * languages.spec.ts pins every name, so a Node whose data differs fails there, not in the room.
 */
const IN_ENGLISH = new Intl.DisplayNames(['en'], { type: 'language' });
export const LANGUAGES: readonly { language: Language; name: string; english: string; direction: Direction }[] = TAGS.map((language) => {
  const own = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  return {
    language,
    name: own.charAt(0).toLocaleUpperCase(language) + own.slice(1),
    english: IN_ENGLISH.of(language) ?? language,
    direction: new Intl.Locale(language).getTextInfo().direction === 'rtl' ? 'rtl' : 'ltr',
  };
});

/** What an interview's `language` may be: `auto` (the interviewee's browser decides) or a supported tag. */
export const AUTO_LANGUAGE = 'auto';
export const LANGUAGE_TAGS: readonly Language[] = LANGUAGES.map((l) => l.language);
export const INTERVIEW_LANGUAGES: readonly string[] = [AUTO_LANGUAGE, ...LANGUAGE_TAGS];
export const FALLBACK_LANGUAGE: Language = 'en';

/** The primary subtag of a language tag, lower case: `pt-BR` → `pt`. */
export function baseLanguage(tag: string): string {
  return tag.split(/[-_]/)[0].toLowerCase();
}

const BY_TAG = new Map<string, (typeof LANGUAGES)[number]>(LANGUAGES.map((l) => [l.language, l]));

export function isLanguage(tag: unknown): tag is Language {
  return typeof tag === 'string' && BY_TAG.has(tag);
}

export function directionOf(language: string): Direction {
  return BY_TAG.get(language)?.direction ?? 'ltr';
}

/** The English name of a language, for an LLM's instructions ("Japanese (日本語)"). */
export function describeLanguage(language: string): string {
  const entry = BY_TAG.get(language);
  return entry ? (entry.name === entry.english ? entry.english : `${entry.english} (${entry.name})`) : language;
}

/** A BCP 47 tag ("pt-BR", "zh_Hant_TW", "JA") as one of ours: the whole tag, then its primary subtag. */
export function matchLanguage(tag: string | null | undefined): Language | null {
  if (typeof tag !== 'string') return null;
  const clean = tag.trim().toLowerCase().replace(/_/g, '-');
  if (clean.length === 0 || clean.length > 35) return null;
  if (isLanguage(clean)) return clean;
  const primary = clean.split('-')[0];
  return isLanguage(primary) ? primary : null;
}

/**
 * The best supported language of an Accept-Language header, by quality (ties keep the header's order),
 * or null. Entries with q=0 are refused, `*` matches nothing in particular; malformed ones are skipped.
 */
export function fromAcceptLanguage(header: string | null | undefined): Language | null {
  if (typeof header !== 'string' || header.length === 0) return null;
  const entries = header
    .slice(0, 1000)
    .split(',')
    .slice(0, 50)
    .map((part, order) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)).find((m) => m);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, order };
    })
    .filter((e) => e.tag !== '' && e.tag !== '*' && e.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const entry of entries) {
    const match = matchLanguage(entry.tag);
    if (match) return match;
  }
  return null;
}

/**
 * The room's language before the interview starts: the interview's own when it has one, else `?lang=`,
 * then the browser's Accept-Language, then English.
 */
export function negotiateLanguage(interviewLanguage: string | null, query: string | null | undefined, acceptLanguage: string | null | undefined): Language {
  if (isLanguage(interviewLanguage)) return interviewLanguage;
  return matchLanguage(query) ?? fromAcceptLanguage(acceptLanguage) ?? FALLBACK_LANGUAGE;
}

/**
 * The language an interview's guidelines are written in: its own when it is held in one, else English
 * (the room's fallback, so that an interviewee whose language has no translation reads the base text).
 */
export function baseLanguageOf(interviewLanguage: string | null): Language {
  return isLanguage(interviewLanguage) ? interviewLanguage : FALLBACK_LANGUAGE;
}

/**
 * What an interviewee of an `auto` interview may choose before starting: the base language and those the
 * guidelines are translated into, in the list's order, each by its own name. Fewer than two: no choice.
 */
export function interviewLanguageChoices(interviewLanguage: string | null, translations: Readonly<Record<string, string>> | null): { language: Language; name: string }[] {
  if (isLanguage(interviewLanguage) || !translations) return [];
  const offered = new Set<string>([baseLanguageOf(interviewLanguage), ...Object.keys(translations)]);
  const choices = LANGUAGES.filter((l) => offered.has(l.language)).map((l) => ({ language: l.language, name: l.name }));
  return choices.length > 1 ? choices : [];
}
