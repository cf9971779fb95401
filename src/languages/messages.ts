import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FALLBACK_LANGUAGE, LANGUAGE_TAGS, Language, isLanguage } from './languages';

/**
 * The fixed texts of the interview room and the phrases of the built-in interviewer, one plain JSON
 * catalog per language in ./catalogs (key → text, `{placeholder}` for what is filled in), so that a
 * translator edits them without reading code. English is the reference: messages.spec.ts fails when a
 * catalog lacks a key of it, has one it lacks, or differs in placeholders.
 */
export type Catalog = Readonly<Record<string, string>>;

export const CATALOG_DIR = join(__dirname, 'catalogs');

export function readCatalog(language: string): Catalog {
  return JSON.parse(readFileSync(join(CATALOG_DIR, `${language}.json`), 'utf8')) as Catalog;
}

/** Read once, at start-up: a missing or malformed catalog stops the service rather than a page. */
const CATALOGS: ReadonlyMap<Language, Catalog> = new Map(LANGUAGE_TAGS.map((language) => [language, readCatalog(language)]));

const PLACEHOLDER = /\{(\w+)\}/g;

/** The placeholders a text uses, sorted: what every translation of it must use too. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();
}

/** Fills `{placeholder}`s; one without a value stays as written (a visible gap, not a crash). */
export function fill(text: string, values: Readonly<Record<string, string | number>> = {}): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/** The catalog of a language (English for one we do not have). */
export function catalogOf(language: string): Catalog {
  return CATALOGS.get(isLanguage(language) ? language : FALLBACK_LANGUAGE)!;
}

/** One message in a language, filled; a key missing there falls back to English, then to the key. */
export function translate(language: string, key: string, values?: Readonly<Record<string, string | number>>): string {
  const text = catalogOf(language)[key] ?? catalogOf(FALLBACK_LANGUAGE)[key] ?? key;
  return fill(text, values);
}

/** The messages of one language whose keys start with `prefix`, for a page's script. */
export function messagesWithPrefix(language: string, prefix: string): Record<string, string> {
  const catalog = catalogOf(language);
  return Object.fromEntries(Object.entries(catalog).filter(([key]) => key.startsWith(prefix)));
}
