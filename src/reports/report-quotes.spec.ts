import { WITHDRAWN_DESCRIPTION, quotedLinks, withoutQuotesOf } from './report-quotes';

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

  it('replaces a description that repeats a quote taken out by a quote kept, or withdraws it', () => {
    const described = {
      questions: [],
      themes: [
        { theme: 'ledger', description: 'I keep my ledger every week', quotes: [quote('a', 'I keep my ledger every week'), quote('b', 'my ledger on Mondays')] },
        { theme: 'maps', description: 'maps with my crew', quotes: [quote('a', 'I share maps with my crew weekly')] },
        { theme: 'other', description: 'A description of its own.', quotes: [quote('a', 'x y z'), quote('b', 'b said this')] },
      ],
    };
    const next = JSON.parse(withoutQuotesOf(JSON.stringify(described), new Set(['a']))!);
    expect(next.themes.map((th: { description: string }) => th.description)).toEqual(['my ledger on Mondays', WITHDRAWN_DESCRIPTION, 'A description of its own.']);
    expect(JSON.stringify(next)).not.toContain('ledger every week');
    expect(JSON.stringify(next)).not.toContain('crew');
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
