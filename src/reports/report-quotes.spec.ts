import { quotedLinks, withoutQuotesOf } from './report-quotes';

describe(withoutQuotesOf.name, () => {
  const quote = (linkID: string, text: string) => ({ linkID, turnIndex: 2, text });
  const result = {
    invites: { total: 2 },
    questions: [
      { questionIndex: 0, quotes: [quote('a', 'meeting notes every week'), quote('b', 'research notes for thesis')], themes: [{ theme: 'notes', quotes: [quote('a', 'meeting notes every week')] }] },
    ],
    themes: [{ theme: 'notes', answers: 2, quotes: [quote('b', 'research notes for thesis'), quote('a', 'x y z')] }],
    notes: [],
  };

  it('takes the invites\' quotes out of every quotes list, keeping the rest as it was', () => {
    const sut = withoutQuotesOf(JSON.stringify(result), new Set(['a']));
    expect(sut).not.toBeNull();
    const next = JSON.parse(sut!);
    expect(next.questions[0].quotes).toEqual([quote('b', 'research notes for thesis')]);
    expect(next.questions[0].themes[0].quotes).toEqual([]);
    expect(next.themes[0].quotes).toEqual([quote('b', 'research notes for thesis')]);
    expect(next.themes[0].answers).toBe(2);
    expect(next.invites).toEqual({ total: 2 });
    expect(sut).not.toContain('meeting notes');
  });

  it('answers null when no quote is of those invites', () => {
    expect(withoutQuotesOf(JSON.stringify(result), new Set(['c']))).toBeNull();
  });
});

describe(quotedLinks.name, () => {
  it('lists the invites quoted anywhere in a result, each once, in the order first met', () => {
    const quote = (linkID: string) => ({ linkID, turnIndex: 1, text: 'three words here' });
    const result = { questions: [{ quotes: [quote('a')], themes: [{ quotes: [quote('b'), quote('a')] }] }], themes: [{ quotes: [quote('c')] }], notes: ['quotes'] };
    expect(quotedLinks(JSON.stringify(result))).toEqual(['a', 'b', 'c']);
    expect(quotedLinks(JSON.stringify({ questions: [], themes: [] }))).toEqual([]);
  });
});
