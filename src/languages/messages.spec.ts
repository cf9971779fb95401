import { readdirSync } from 'node:fs';
import { LANGUAGES, LANGUAGE_TAGS } from './languages';
import { CATALOG_DIR, fill, placeholdersOf, readCatalog, translate } from './messages';

describe('message catalogs', () => {
  const reference = readCatalog('en');
  const keys = Object.keys(reference).sort();

  it('has a catalog for every supported language, and no other', () => {
    const files = readdirSync(CATALOG_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
    expect(files).toEqual([...LANGUAGE_TAGS].sort());
    expect(LANGUAGE_TAGS).toEqual(expect.arrayContaining(['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'tr', 'ja', 'zh', 'ar']));
  });

  it.each(LANGUAGES.map((l) => l.language))('%s: every key of English, no other, each a non-blank text', (language) => {
    const catalog = readCatalog(language);
    expect(Object.keys(catalog).sort()).toEqual(keys);
    for (const [key, text] of Object.entries(catalog)) {
      expect([key, typeof text === 'string' && text.trim() !== '']).toEqual([key, true]);
    }
  });

  it.each(LANGUAGES.map((l) => l.language))('%s: the same placeholders as English in every message', (language) => {
    const catalog = readCatalog(language);
    for (const key of keys) expect([key, placeholdersOf(catalog[key] ?? '')]).toEqual([key, placeholdersOf(reference[key])]);
  });

  it.each(LANGUAGES.filter((l) => l.language !== 'en').map((l) => l.language))('%s: translated, not English copied over', (language) => {
    const catalog = readCatalog(language);
    const same = keys.filter((key) => catalog[key] === reference[key] && !/^[\s\p{P}{}\w]{0,12}$/u.test(reference[key]));
    // Short labels ("Name", "Interviewer") may be the same word; whole sentences may not.
    expect(same.filter((key) => reference[key].includes(' ') && reference[key].length > 20)).toEqual([]);
  });

  it('tells a missing placeholder apart from a present one', () => {
    expect(placeholdersOf('Question {asked} of {total}')).toEqual(['asked', 'total']);
    expect(placeholdersOf('{product} and {product}')).toEqual(['product']);
    expect(fill('Hello {name}, {missing}', { name: 'Ada' })).toBe('Hello Ada, {missing}');
  });

  it('falls back to English for an unknown language', () => {
    expect(translate('xx', 'room.button.send')).toBe('Send');
    expect(translate('ja', 'room.progress', { asked: 2, total: 5 })).toBe('質問 2 / 5');
  });
});
