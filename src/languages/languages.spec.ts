import { fromAcceptLanguage, matchLanguage, negotiateLanguage } from './languages';

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
