import { joinTerms, termRuns } from './tokenize';

describe('termRuns', () => {
  it('drops English stop words and spoken fillers, and breaks phrases there and at punctuation', () => {
    expect(termRuns("I think the customer support is really great, but it's slow.", 'en')).toEqual([['customer', 'support'], ['great'], ['slow']]);
  });

  it('lower-cases, drops possessives, numbers and stray letters', () => {
    expect(termRuns("Our CEO's Dashboard shows 42 charts x", 'en')).toEqual([['ceo', 'dashboard', 'shows'], ['charts']]);
  });

  it('drops Spanish stop words', () => {
    expect(termRuns('El precio es muy caro para nosotros', 'es')).toEqual([['precio'], ['caro']]);
  });

  it('strips French elisions', () => {
    expect(termRuns("L'application est lente et l’interface confuse", 'fr')).toEqual([['application'], ['lente'], ['interface', 'confuse']]);
  });

  it('treats markup as white space and emoji as a break', () => {
    expect(termRuns('<b>customer</b> <i>support</i> 😀 invoices', 'en')).toEqual([['customer', 'support'], ['invoices']]);
  });

  it('keeps a phrase across double spaces, newlines and direction marks', () => {
    expect(termRuns('customer  \n\u200fsupport', 'en')).toEqual([['customer', 'support']]);
  });

  it('segments Japanese into words and drops particles written in hiragana', () => {
    expect(termRuns('価格が高すぎると思います。サポートはとても親切でした', 'ja')).toEqual([['価格'], ['高'], ['サポート'], ['親切']]);
  });

  it('segments Chinese into words and drops its stop words', () => {
    expect(termRuns('价格太贵了，但是客户支持很好', 'zh').flat()).toEqual(expect.arrayContaining(['价格', '客户', '支持']));
    expect(termRuns('价格太贵了，但是客户支持很好', 'zh').flat()).not.toContain('但是');
  });

  it('drops Arabic stop words and diacritics', () => {
    expect(termRuns('السِّعر مرتفع جدا في هذا المنتج', 'ar').flat()).toEqual(['السعر', 'مرتفع', 'المنتج']);
  });

  it('keeps every word of a language without a stop-word list', () => {
    expect(termRuns('tlhIngan Hol ghojmoH', 'tlh')).toEqual([['tlhingan', 'hol', 'ghojmoh']]);
  });
});

describe('joinTerms', () => {
  it('joins with spaces, but not between words of unspaced scripts', () => {
    expect(joinTerms(['customer', 'support'])).toBe('customer support');
    expect(joinTerms(['客户', '支持'])).toBe('客户支持');
    expect(joinTerms(['api', '料金'])).toBe('api 料金');
  });
});
