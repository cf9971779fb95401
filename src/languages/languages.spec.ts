import { LANGUAGES, describeLanguage, directionOf, fromAcceptLanguage, matchLanguage, negotiateLanguage } from './languages';

describe('the languages', () => {
  // The names are Node's CLDR data, capitalised for a menu: this pins what the room and GET /v1/languages show.
  it('names each in its own words and in English, with its direction', () => {
    expect(LANGUAGES.map(({ language, name, english, direction }) => `${language} ${name} ${english} ${direction}`)).toEqual([
      'en English English ltr',
      'es Español Spanish ltr',
      'fr Français French ltr',
      'de Deutsch German ltr',
      'pt Português Portuguese ltr',
      'it Italiano Italian ltr',
      'nl Nederlands Dutch ltr',
      'pl Polski Polish ltr',
      'tr Türkçe Turkish ltr',
      'ja 日本語 Japanese ltr',
      'zh 中文 Chinese ltr',
      'ar العربية Arabic rtl',
    ]);
  });

  it('describes a language for an LLM in English with its own name, and knows which way it is written', () => {
    expect(describeLanguage('ja')).toBe('Japanese (日本語)');
    expect(describeLanguage('en')).toBe('English');
    expect(describeLanguage('xx')).toBe('xx');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
  });
});

describe('language choice', () => {
  it('matches a tag by itself, then by its primary subtag', () => {
    expect(matchLanguage('pt-BR')).toBe('pt');
    expect(matchLanguage('ZH_hant_TW')).toBe('zh');
    expect(matchLanguage('ja')).toBe('ja');
    expect(matchLanguage('xx')).toBeNull();
    expect(matchLanguage('')).toBeNull();
    expect(matchLanguage(undefined)).toBeNull();
  });

  it('reads the whole Accept-Language list by quality, ties in order', () => {
    expect(fromAcceptLanguage('ja-JP,ja;q=0.9,en-US;q=0.8')).toBe('ja');
    expect(fromAcceptLanguage('sv-SE,sv;q=0.9,de;q=0.8,en;q=0.7')).toBe('de');
    expect(fromAcceptLanguage('en;q=0.5, ar;q=0.9')).toBe('ar');
    expect(fromAcceptLanguage('fr;q=0, es')).toBe('es');
    expect(fromAcceptLanguage('*, sv')).toBeNull();
    expect(fromAcceptLanguage('q=;;,,;')).toBeNull();
    expect(fromAcceptLanguage(undefined)).toBeNull();
  });

  it('prefers the interview language, then ?lang=, then the browser, then English', () => {
    expect(negotiateLanguage('de', 'es', 'ja')).toBe('de');
    expect(negotiateLanguage('auto', 'es', 'ja')).toBe('es');
    expect(negotiateLanguage('auto', 'xx', 'ja')).toBe('ja');
    expect(negotiateLanguage(null, null, 'sv')).toBe('en');
  });
});
