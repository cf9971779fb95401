import { syntheticAnswers } from './synthetic-answers';
import { forEachTerm, joinTerms, termOf, termRuns, termRules } from './tokenize';

/**
 * The scan of spaced scripts as first written, with a global expression's exec() and the gap sliced
 * out: the oracle that forEachTerm's allocation-free scan must agree with.
 */
function termsByExec(text: string, tag: string): (string | null)[] {
  const rules = termRules(tag);
  const word = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/gu;
  const blank = /^[\s\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]*$/u;
  const out: (string | null)[] = [];
  let end = 0;
  for (let match = word.exec(text); match; match = word.exec(text)) {
    if (match.index > end && !blank.test(text.slice(end, match.index))) out.push(null);
    out.push(termOf(match[0], rules));
    end = match.index + match[0].length;
  }
  return out;
}

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

describe('forEachTerm', () => {
  const terms = (text: string, tag: string) => {
    const out: (string | null)[] = [];
    forEachTerm(text, termRules(tag), (term) => out.push(term));
    return out;
  };

  it.each([
    ["I think the customer support is really great, but it's slow.", 'en'],
    ["rock'n'roll, don' t — well-known ‘quotes’ 3.5x 🙂 end", 'en'],
    ['customer  \n\u200fsupport\u00a0team', 'en'],
    ["L'application est lente et l’interface confuse", 'fr'],
    ['Ça coûte 10€/mois… trop cher!', 'fr'],
    ['السعر مرتفع جدا، لكن الدعم ممتاز', 'ar'],
    ['Цена высокая, но поддержка отличная', 'ru'],
    ['', 'en'],
    ['...', 'en'],
    ['𝒜𝓁𝓅𝒽𝒶 words in astral letters', 'en'],
  ])('finds the words of %p as an exec() scan does', (text, tag) => {
    expect(terms(text, tag)).toEqual(termsByExec(text, tag));
  });

  it('finds the words of 5,000 synthetic answers as an exec() scan does', () => {
    const spaced = syntheticAnswers(5_000, { questions: 10, seed: 5 }).filter((a) => !/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}]/u.test(a.answer));
    expect(spaced.length).toBeGreaterThan(4_000);
    expect(spaced.filter((a) => JSON.stringify(terms(a.answer, a.language)) !== JSON.stringify(termsByExec(a.answer, a.language)))).toEqual([]);
  });
});

describe('joinTerms', () => {
  it('joins with spaces, but not between words of unspaced scripts', () => {
    expect(joinTerms(['customer', 'support'])).toBe('customer support');
    expect(joinTerms(['客户', '支持'])).toBe('客户支持');
    expect(joinTerms(['api', '料金'])).toBe('api 料金');
  });
});
