import type { QuestionReport, Theme } from './analysis/analysis.types';
import { median, sentimentSplit } from './analysis/stats';
import { CodeTally, currentShape, numberThemes, tidyCodes, type CodeFacts, type StoredResult } from './report-codes';

const theme = (themeID: string, overrides: Partial<Theme> = {}): Theme => ({
  themeID,
  theme: themeID,
  description: '',
  keyphrases: [],
  answers: 99,
  mentions: 99,
  quotes: [],
  emerging: false,
  language: 'en',
  ...overrides,
});
const question = (questionIndex: number | null, themes: Theme[]): QuestionReport => ({
  questionIndex,
  question: null,
  answered: 99,
  medianWords: 99,
  sentiment: sentimentSplit([0.9]),
  keyphrases: [],
  themes,
  quotes: [],
  coverage: 0.1,
  other: { answers: 99, mentions: 99 },
});
const code = (linkID: string, questionIndex: number | null, themeIDs: string[], words: number, sentiment: number | null, acrossThemeIDs: string[] = []): CodeFacts => ({
  linkID,
  questionIndex,
  themeIDs,
  acrossThemeIDs,
  words,
  sentiment,
});

describe(CodeTally.name, () => {
  const result = () => ({
    questions: [question(0, [theme('q0-t1'), theme('q0-t2'), theme('q0-c1')]), question(1, []), question(null, [theme('qx-t1')])],
    themes: [theme('all-t1')],
    medianAnswerWords: 99,
    sentiment: sentimentSplit([]),
  });
  const codes = [
    code('a', 0, ['q0-t1', 'q0-t2'], 10, 0.5, ['all-t1']),
    code('a', 0, ['q0-t1'], 4, -0.4, ['all-t1']),
    code('b', 0, [], 2, null),
    code('c', 0, ['q0-t2'], 7, 0.02),
    code('b', null, ['qx-t1'], 5, 0.3, ['all-t1']),
    // A question the report has no row for: counted with the unattributed answers.
    code('c', 7, [], 3, null),
  ];

  it("counts each theme's interviewees and answers, coverage and other, from the codes alone", () => {
    const counted = result();
    const sut = new CodeTally(counted.questions);
    for (const c of codes) sut.add(c);
    sut.applyTo(counted);
    const [first, second, unattributed] = counted.questions;
    expect(first.themes.map((t) => [t.themeID, t.answers, t.mentions])).toEqual([
      ['q0-t1', 1, 2],
      ['q0-t2', 2, 2],
      ['q0-c1', 0, 0],
    ]);
    expect(first).toMatchObject({ answered: 3, coverage: 0.75, other: { answers: 1, mentions: 1 }, medianWords: median([10, 4, 2, 7]), sentiment: sentimentSplit([0.5, -0.4, null, 0.02]) });
    expect(second).toMatchObject({ answered: 0, coverage: null, other: { answers: 0, mentions: 0 }, medianWords: null, sentiment: sentimentSplit([]) });
    expect(unattributed).toMatchObject({ answered: 2, coverage: 0.5, other: { answers: 1, mentions: 1 } });
    expect(counted.themes.map((t) => [t.answers, t.mentions])).toEqual([[2, 3]]);
    expect(counted.medianAnswerWords).toBe(median([10, 4, 2, 7, 5, 3]));
    expect(counted.sentiment).toEqual(sentimentSplit([0.5, -0.4, null, 0.02, 0.3, null]));
  });

  it('rounds coverage to 4 decimals', () => {
    const counted = result();
    const sut = new CodeTally(counted.questions);
    for (const c of [code('a', 0, ['q0-t1'], 1, null), code('b', 0, ['q0-t1'], 1, null), code('c', 0, [], 1, null)]) sut.add(c);
    sut.applyTo(counted);
    expect(counted.questions[0].coverage).toBe(0.6667);
  });

  it("leaves a result's overall figures alone when it has none (an analysis' result)", () => {
    const analysis = { questions: [question(0, [theme('q0-t1')])], themes: [] };
    const sut = new CodeTally(analysis.questions);
    sut.add(code('a', 0, ['q0-t1'], 3, 0.1));
    sut.applyTo(analysis);
    expect(analysis).not.toHaveProperty('sentiment');
    expect(analysis.questions[0].themes[0].mentions).toBe(1);
  });
});

describe(tidyCodes.name, () => {
  it("keeps a code's themes that its question (or the interview) has, once each, in their order", () => {
    const result = { questions: [question(0, [theme('q0-t1'), theme('q0-t2')]), question(null, [theme('qx-t1')])], themes: [theme('all-t1')] };
    const tidy = tidyCodes(result, [
      { linkID: 'a', turnIndex: 1, questionIndex: 0, themeIDs: ['q0-t2', 'q9-t1', 'q0-t1', 'q0-t2', 'qx-t1'], acrossThemeIDs: ['all-t2', 'all-t1'] },
      { linkID: 'a', turnIndex: 3, questionIndex: 5, themeIDs: ['qx-t1', 'q0-t1'], acrossThemeIDs: [] },
    ]);
    expect(tidy.map((c) => [c.themeIDs, c.acrossThemeIDs])).toEqual([
      [['q0-t1', 'q0-t2'], ['all-t1']],
      [['qx-t1'], []],
    ]);
  });
});

describe(numberThemes.name, () => {
  it('gives a theme without an identifier its place', () => {
    const result = { questions: [question(2, [theme(''), theme('')]), question(null, [theme('')])], themes: [theme(''), theme('all-t7')] };
    numberThemes(result);
    expect([...result.questions.flatMap((q) => q.themes), ...result.themes].map((t) => t.themeID)).toEqual(['q2-t1', 'q2-t2', 'qx-t1', 'all-t1', 'all-t7']);
  });
});

describe(currentShape.name, () => {
  it('brings a result stored before answers were coded to the shape the API documents', () => {
    const legacy = {
      questions: [{ questionIndex: 0, question: 'Q?', answered: 2, medianWords: 3, sentiment: sentimentSplit([]), keyphrases: [], quotes: [], themes: [{ theme: 'a · b', description: 'd', answers: 2, quotes: [] }] }],
      themes: [{ theme: 'x', description: 'y', answers: 1, quotes: [] }],
    } as unknown as StoredResult;
    const shaped = currentShape(legacy);
    expect(shaped.sentimentMethod).toBe('vader');
    expect(shaped.questions[0]).toMatchObject({ coverage: null, other: { answers: 0, mentions: 0 } });
    expect(shaped.questions[0].themes[0]).toEqual({ themeID: 'q0-t1', theme: 'a · b', description: 'd', keyphrases: [], answers: 2, mentions: 2, quotes: [], emerging: false, language: null });
    expect(shaped.themes[0].themeID).toBe('all-t1');
  });
});
