import { countWords } from '../../interviewers/default-interviewer';
import type { AnalysisAnswer, AnalysisQuestion, AnalysisResult, Quote } from './analysis.types';
import { QUOTE_MAX_WORDS } from './excerpt';
import { analyzeOffline, analyzeQuestion, themesAcross, Yielder } from './offline-analysis';
import { seededRandom } from './kmeans';
import { isVerbatimQuote } from './quotes';
import { stopWordsFor } from './stopwords';
import { syntheticAnswers } from './synthetic-answers';

/** An answer; `words` is given by hand (counted as countWords counts) rather than computed. */
function answer(
  linkID: string,
  questionIndex: number | null,
  text: string,
  words: number,
  sentiment: number | null,
  extra: Partial<AnalysisAnswer> = {},
): AnalysisAnswer {
  return { linkID, turnIndex: 1, questionIndex, answer: text, words, sentiment, language: 'en', followUp: false, ...extra };
}

const QUESTIONS: AnalysisQuestion[] = [
  // Given out of order: the reports follow questionIndex.
  { questionIndex: 1, question: 'How is our support?' },
  { questionIndex: 0, question: 'What frustrates you?' },
  { questionIndex: 2, question: 'What would you add?' },
];

const ANSWERS: AnalysisAnswer[] = [
  answer('a', 0, 'The price is too high for our small team.', 9, -0.3),
  answer('b', 0, 'Pricing feels expensive, the price went up again.', 8, -0.4),
  answer('c', 0, 'We pay a high price and the invoice keeps growing.', 10, null),
  answer('d', 0, 'The app is slow and loading takes forever.', 8, -0.2),
  answer('e', 0, 'Loading is slow every morning, pages crawl.', 7, 0.02),
  answer('f', 0, 'Slow loading of reports wastes my time.', 7, -0.05),
  answer('a', 0, 'Honestly it is fine now.', 5, 0.2, { turnIndex: 3, followUp: true }),
  answer('a', 1, 'Customer support was quick to reply.', 6, 0.5, { turnIndex: 5 }),
  answer('b', 1, 'I love the customer support team.', 6, 0.6, { turnIndex: 5 }),
  answer('c', 1, 'Customer support solved it, support is great.', 7, 0.7, { turnIndex: 5 }),
  answer('d', 1, 'Support could be faster.', 4, 0, { turnIndex: 5 }),
  answer('e', 1, 'Ok.', 1, 0.9, { turnIndex: 5 }),
  answer('a', null, 'Nothing else, thanks a lot!', 5, 0.4, { turnIndex: 9 }),
  answer('b', null, 'No.', 1, null, { turnIndex: 9 }),
];

function allQuotes(result: AnalysisResult): Quote[] {
  return [
    ...result.questions.flatMap((q) => [...q.quotes, ...q.themes.flatMap((t) => t.quotes)]),
    ...result.themes.flatMap((t) => t.quotes),
  ];
}

function expectVerbatim(quotes: readonly Quote[], answers: readonly AnalysisAnswer[]): void {
  for (const quote of quotes) {
    const source = answers.find((a) => a.linkID === quote.linkID && a.turnIndex === quote.turnIndex);
    expect({ quote, verbatim: isVerbatimQuote(quote, source && { role: 'interviewee', content: source.answer }) }).toEqual({ quote, verbatim: true });
    expect(countWords(quote.text)).toBeLessThanOrEqual(QUOTE_MAX_WORDS);
  }
}

describe('analyzeOffline on a hand-counted interview', () => {
  let result: AnalysisResult;
  beforeAll(async () => {
    result = await analyzeOffline({ questions: QUESTIONS, answers: ANSWERS });
  });

  it('reports each guideline question in order, then the unattributed answers', () => {
    expect(result.questions.map((q) => [q.questionIndex, q.question])).toEqual([
      [0, 'What frustrates you?'],
      [1, 'How is our support?'],
      [2, 'What would you add?'],
      [null, null],
    ]);
    expect(result.droppedQuotes).toBe(0);
    expect(result.notes).toEqual([]);
  });

  it('counts distinct invites, the median words and the sentiment split', () => {
    const [q0, q1, , unattributed] = result.questions;
    // a answered question 0 twice (a follow-up): six invites. Words 5 7 7 8 8 9 10: median 8.
    expect([q0.answered, q0.medianWords]).toEqual([6, 8]);
    // Scored: -0.3 -0.4 -0.2 -0.05 negative, 0.02 neutral, 0.2 positive; c unscored. Mean -0.73 / 6.
    expect(q0.sentiment).toEqual({ mean: -0.1217, negative: 4, neutral: 1, positive: 1, scored: 6 });
    // Words 1 4 6 6 7: median 6. Scores 0.5 0.6 0.7 0.9 positive, 0 neutral: mean 2.7 / 5.
    expect([q1.answered, q1.medianWords]).toEqual([5, 6]);
    expect(q1.sentiment).toEqual({ mean: 0.54, negative: 0, neutral: 1, positive: 4, scored: 5 });
    // Words 1 and 5: the mean of the two middle values.
    expect([unattributed.answered, unattributed.medianWords]).toEqual([2, 3]);
    expect(unattributed.sentiment).toEqual({ mean: 0.4, negative: 0, neutral: 0, positive: 1, scored: 1 });
  });

  it('reports a question nobody answered with zeros and empty lists', () => {
    expect(result.questions[2]).toEqual({
      questionIndex: 2,
      question: 'What would you add?',
      answered: 0,
      medianWords: null,
      sentiment: { mean: null, negative: 0, neutral: 0, positive: 0, scored: 0 },
      keyphrases: [],
      themes: [],
      quotes: [],
      coverage: null,
      other: { answers: 0, mentions: 0 },
    });
  });

  it('ranks keyphrases by the invites that use them, without stop words', () => {
    // price: a b c; slow, loading: d e f; high: a c. Equal scores go alphabetically.
    expect(result.questions[0].keyphrases).toEqual([
      { phrase: 'loading', answers: 3 },
      { phrase: 'price', answers: 3 },
      { phrase: 'slow', answers: 3 },
      { phrase: 'high', answers: 2 },
    ]);
    // "customer support" (a b c) stands for "customer" (a b c) and "support" (a b c d).
    expect(result.questions[1].keyphrases).toEqual([{ phrase: 'customer support', answers: 3 }]);
    // A phrase of a single invite is no keyphrase of a group.
    expect(result.questions[3].keyphrases).toEqual([]);
  });

  it('codes the answers about price and those about speed, labelled by a word of their answers, the odd one in other', () => {
    const [q0] = result.questions;
    expect(q0.themes.map(({ themeID, theme, answers, mentions, emerging, language }) => ({ themeID, theme, answers, mentions, emerging, language }))).toEqual([
      { themeID: 'q0-t1', theme: 'loading', answers: 3, mentions: 3, emerging: false, language: 'en' },
      { themeID: 'q0-t2', theme: 'price', answers: 3, mentions: 3, emerging: false, language: 'en' },
    ]);
    // Descriptions: the most typical answer carrying the label, verbatim.
    expect(q0.themes.map((t) => t.description)).toEqual(['Slow loading of reports wastes my time.', 'We pay a high price and the invoice keeps growing.']);
    expect(q0.themes.map((t) => t.keyphrases[0])).toEqual(['loading', 'price']);
    const quoted = q0.themes.map((t) => t.quotes.map((q) => q.linkID).sort());
    expect(quoted[0].every((link) => ['d', 'e', 'f'].includes(link))).toBe(true);
    expect(quoted[1].every((link) => ['a', 'b', 'c'].includes(link))).toBe(true);
    // a's follow-up "Honestly it is fine now." is like neither: other.
    expect([q0.coverage, q0.other]).toEqual([0.8571, { answers: 1, mentions: 1 }]);
  });

  it('codes every answer it read, in order, with its own question\'s theme and the theme across the interview', () => {
    expect(result.codes.map((c) => [c.linkID, c.turnIndex, c.questionIndex, c.themeIDs, c.acrossThemeIDs])).toEqual([
      ['a', 1, 0, ['q0-t2'], ['all-t3']],
      ['b', 1, 0, ['q0-t2'], ['all-t3']],
      ['c', 1, 0, ['q0-t2'], ['all-t3']],
      ['d', 1, 0, ['q0-t1'], ['all-t2']],
      ['e', 1, 0, ['q0-t1'], ['all-t2']],
      ['f', 1, 0, ['q0-t1'], ['all-t2']],
      ['a', 3, 0, [], []],
      ['a', 5, 1, ['q1-t1'], ['all-t1']],
      ['b', 5, 1, ['q1-t1'], ['all-t1']],
      ['c', 5, 1, ['q1-t1'], ['all-t1']],
      ['d', 5, 1, ['q1-t1'], ['all-t1']],
      ['e', 5, 1, [], []],
      ['a', 9, null, [], []],
      ['b', 9, null, [], []],
    ]);
  });

  it('finds one theme where all answers share their topic', () => {
    // "Ok." has no term: other. Support is in all four others, "customer support" in three.
    expect(result.questions[1].themes.map(({ theme, answers, mentions }) => ({ theme, answers, mentions }))).toEqual([{ theme: 'customer support', answers: 4, mentions: 4 }]);
    expect([result.questions[1].coverage, result.questions[1].other]).toEqual([0.8, { answers: 1, mentions: 1 }]);
    expect([result.questions[3].coverage, result.questions[3].other]).toEqual([0, { answers: 2, mentions: 2 }]);
  });

  it('quotes the most positive and the most negative answers, never one under three words', () => {
    expect(result.questions[0].quotes).toEqual([
      { linkID: 'a', turnIndex: 3, text: 'Honestly it is fine now.' },
      { linkID: 'b', turnIndex: 1, text: 'Pricing feels expensive, the price went up again.' },
    ]);
    // e's "Ok." (0.9) is too short to quote: c (0.7) is the most positive quotable; nothing is negative.
    expect(result.questions[1].quotes).toEqual([{ linkID: 'c', turnIndex: 5, text: 'Customer support solved it, support is great.' }]);
    expect(result.questions[3].quotes).toEqual([{ linkID: 'a', turnIndex: 9, text: 'Nothing else, thanks a lot!' }]);
  });

  it('finds the same topics across the interview', () => {
    expect(result.themes.map((t) => [t.themeID, t.theme, t.answers])).toEqual([
      ['all-t1', 'customer support', 4],
      ['all-t2', 'loading', 3],
      ['all-t3', 'price', 3],
    ]);
  });

  it('quotes verbatim', () => expectVerbatim(allQuotes(result), ANSWERS));
});

describe('themes', () => {
  const PRICE = ['price', 'cost', 'invoice', 'expensive', 'billing', 'subscription', 'fee', 'discount'];
  const SPEED = ['slow', 'loading', 'speed', 'lag', 'waiting', 'performance', 'seconds', 'freeze'];
  const FILLER = ['honestly', 'team', 'product', 'every', 'day', 'bother', 'annoying', 'week', 'people', 'month'];

  /** Answers on price (invites p0, p2, ...) and on speed (s1, s3, ...), interleaved. */
  function topical(count: number, topicWords: number, fillerWords: number, seed: number): AnalysisAnswer[] {
    const random = seededRandom(seed);
    const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)];
    return Array.from({ length: count }, (_, i) => {
      const words = [...Array.from({ length: topicWords }, () => pick(i % 2 ? SPEED : PRICE)), ...Array.from({ length: fillerWords }, () => pick(FILLER))];
      words.sort(() => random() - 0.5);
      const text = `The ${words.join(' and the ')}.`;
      return answer(`${i % 2 ? 's' : 'p'}${i}`, 0, text, countWords(text), 0);
    });
  }
  const topicOf = (linkID: string) => linkID[0];

  it('puts every answer of two distinct topics in its own theme', async () => {
    const answers = topical(80, 4, 3, 11);
    const themes = await themesAcross(answers, new Yielder());
    const summary = themes.map((theme) => ({
      topic: theme.theme.split(' · ').every((term) => PRICE.includes(term)) ? 'p' : theme.theme.split(' · ').every((term) => SPEED.includes(term)) ? 's' : '?',
      answers: theme.answers,
      quoted: [...new Set(theme.quotes.map((q) => topicOf(q.linkID)))].join(),
    }));
    expect(summary.sort((a, b) => (a.topic < b.topic ? -1 : 1))).toEqual([
      { topic: 'p', answers: 40, quoted: 'p' },
      { topic: 's', answers: 40, quoted: 's' },
    ]);
  });

  it('never mixes the topics when it splits them finer', async () => {
    // Two topic words in eight per answer: answers of one topic often share no word, so they may split.
    const answers = topical(120, 2, 2, 5);
    const themes = await themesAcross(answers, new Yielder());
    // Each topic word is in about 23% of its topic's answers: a group needs a phrase in a quarter of its
    // answers to be named, so a topic may stay in other rather than be named by a word most do not say.
    expect(themes.length).toBeGreaterThanOrEqual(1);
    for (const theme of themes) {
      expect(new Set(theme.quotes.map((q) => topicOf(q.linkID))).size).toBe(1);
    }
  });

  it('counts a theme in distinct invites, not answers', async () => {
    const once = topical(80, 4, 3, 11);
    // Each price invite answers twice (question and follow-up): 80 price answers from 40 invites.
    const twice = [...once, ...once.filter((a) => topicOf(a.linkID) === 'p').map((a) => ({ ...a, turnIndex: 3, followUp: true }))];
    const themes = await themesAcross(twice, new Yielder());
    const price = themes.filter((t) => t.quotes.every((q) => topicOf(q.linkID) === 'p'));
    expect(price.reduce((sum, t) => sum + t.mentions, 0)).toBe(80);
    expect(price.reduce((sum, t) => sum + t.answers, 0)).toBe(40);
  });

  it('leaves answers with nothing in common out rather than forcing a theme', async () => {
    const unrelated = ['Bananas are yellow and ripe', 'Quantum physics puzzles everyone', 'Mountains look lovely in winter', 'Jazz records spin slowly'];
    const themes = await themesAcross(unrelated.map((text, i) => answer(`x${i}`, 0, text, countWords(text), 0)), new Yielder());
    expect(themes).toEqual([]);
  });
});

describe('languages', () => {
  it('finds Japanese keyphrases, not particles', async () => {
    const report = await analyzeQuestion(null, [
      answer('a', 0, '価格が高すぎると思います。サポートはとても親切でした。', 10, 0.1, { language: 'ja' }),
      answer('b', 0, '価格は高いですが、サポートは良いです。', 9, 0.1, { language: 'ja' }),
    ], new Yielder());
    expect(report.keyphrases).toEqual([
      { phrase: 'サポート', answers: 2 },
      { phrase: '価格', answers: 2 },
    ]);
    expect(report.questionIndex).toBeNull();
  });

  it('finds Chinese keyphrases, joining words without spaces', async () => {
    const report = await analyzeQuestion({ questionIndex: 4, question: '?' }, [
      answer('c', 4, '价格太贵了，但是客户支持很好。', 8, 0.1, { language: 'zh' }),
      answer('d', 4, '价格有点贵，客户支持很快。', 7, 0.1, { language: 'zh' }),
    ], new Yielder());
    // 客户 and 支持 are always together: 客户支持 stands for both.
    expect(report.keyphrases).toEqual([
      { phrase: '价格', answers: 2 },
      { phrase: '客户支持', answers: 2 },
    ]);
    expect(report.questionIndex).toBe(4);
  });

  it('finds Arabic keyphrases in right-to-left text with direction marks', async () => {
    const report = await analyzeQuestion(null, [
      answer('e', 0, '\u200fالسعر مرتفع جدا والدعم ممتاز', 5, 0.1, { language: 'ar' }),
      answer('f', 0, 'السعر مرتفع لكن الدعم سريع', 5, 0.1, { language: 'ar' }),
    ], new Yielder());
    expect(report.keyphrases).toEqual([{ phrase: 'السعر مرتفع', answers: 2 }]);
  });

  it('keeps stop words out of keyphrases and theme names, whatever the language', async () => {
    const answers = syntheticAnswers(600, { questions: 2, seed: 7 });
    const result = await analyzeOffline({ questions: [{ questionIndex: 0, question: 'A' }, { questionIndex: 1, question: 'B' }], answers });
    const phrases = result.questions.flatMap((q) => [...q.keyphrases.map((k) => k.phrase), ...q.themes.map((t) => t.theme)]);
    expect(phrases.length).toBeGreaterThan(10);
    const english = stopWordsFor('en')!;
    const spanish = stopWordsFor('es')!;
    for (const phrase of phrases) {
      for (const word of phrase.split(' ')) expect({ word, stop: english.has(word) || spanish.has(word) }).toEqual({ word, stop: false });
    }
    // The synthetic filler ("the", "really", "think", "we", "es", "muy", ...) is frequent enough to rank if kept.
    expect(phrases).not.toEqual(expect.arrayContaining(['really']));
  });

  it('notes a language without a stop-word list', async () => {
    const result = await analyzeOffline({
      questions: [{ questionIndex: 0, question: 'Q' }],
      answers: [answer('k', 0, 'tlhIngan Hol vIjatlh', 3, null, { language: 'tlh' })],
    });
    expect(result.notes).toEqual(['1 answer in "tlh" had no stop-word list: common words of that language may show among keyphrases and theme names.']);
  });

  it('reports answers to a question the interview does not list with the unattributed ones', async () => {
    const result = await analyzeOffline({ questions: [{ questionIndex: 0, question: 'Q' }], answers: [answer('z', 7, 'A stray answer here.', 4, null)] });
    expect(result.questions.map((q) => [q.questionIndex, q.answered])).toEqual([
      [0, 0],
      [null, 1],
    ]);
    expect(result.notes).toEqual(['Answers to questions the interview does not list (7) are reported with the unattributed answers.']);
  });
});

describe('edge cases', () => {
  it('does not trust the word counts it is given for its own sizes', async () => {
    const text = 'The price is too high for our small team, and the invoice keeps growing every single month.';
    const wrong = [0, Number.NaN, -5].map((words, i) => answer(`w${i}`, 0, text.repeat(40), words, null));
    const report = await analyzeQuestion(null, wrong, new Yielder());
    // price; high; small team; the four triples of "invoice keeps growing every single month".
    expect(report.keyphrases.map((k) => k.phrase)).toEqual([
      'every single month',
      'growing every single',
      'high',
      'invoice keeps growing',
      'keeps growing every',
      'price',
      'small team',
    ]);
    expect(report.keyphrases.every((k) => k.answers === 3)).toBe(true);
  });

  it('analyses nothing into an empty result', async () => {
    expect(await analyzeOffline({ questions: [], answers: [] })).toEqual({ questions: [], themes: [], droppedQuotes: 0, notes: [], codes: [] });
    expect(await themesAcross([], new Yielder())).toEqual([]);
    expect((await analyzeQuestion(null, [], new Yielder())).answered).toBe(0);
  });

  it('quotes verbatim whatever the answers hold', async () => {
    const pieces = [
      'The <b>price</b> is  too high.',
      'Loading is\nslow 🐢 every\tmorning.',
      '\u200fالسعر مرتفع جدا\u200f والدعم ممتاز.',
      '価格が高すぎると思います。',
      '价格太贵了，但是客户支持很好。',
      'Support <i>was</i> great 👍🏽 honestly!!',
      '   Leading and trailing spaces around the price   ',
      'A “quoted” price — with dashes – and ellipses…',
      'Ünïcödé prices: café, naïve, façade.',
      '&amp; entities &lt;and&gt; the price &#39;here&#39;',
      'x',
      'Ok.',
      '\n\n',
    ];
    const answers: AnalysisAnswer[] = [];
    for (let i = 0; i < 240; i++) {
      // A deterministic mix of two to six pieces, some joined by odd white space.
      const count = 2 + (i % 5);
      const parts = Array.from({ length: count }, (_, j) => pieces[(i * 7 + j * 3) % pieces.length]);
      const text = parts.join(['  ', '\n', ' ', '\u200f ', '\t'][i % 5]);
      const language = ['en', 'ja', 'ar', 'zh', 'fr'][i % 5];
      answers.push({ linkID: `l${i % 60}`, turnIndex: 1 + 2 * Math.floor(i / 60), questionIndex: i % 4 === 3 ? null : i % 3, answer: text, words: countWords(text), sentiment: ((i % 11) - 5) / 5, language, followUp: false });
    }
    const result = await analyzeOffline({ questions: [0, 1, 2].map((q) => ({ questionIndex: q, question: `Q${q}` })), answers });
    const quotes = allQuotes(result);
    expect(quotes.length).toBeGreaterThan(10);
    expectVerbatim(quotes, answers);
  });
});

describe('determinism and progress', () => {
  // Thousands of answers, analysed twice: seconds on a busy machine, more than Jest's default 5 s allows.
  const LONG = 30_000;
  const questions = Array.from({ length: 10 }, (_, i) => ({ questionIndex: i, question: `Question ${i}` }));

  it('gives the same result for the same answers, however often it yields', async () => {
    const answers = syntheticAnswers(3000);
    const first = await analyzeOffline({ questions, answers });
    const second = await analyzeOffline({ questions, answers: structuredClone(answers) }, { yielder: new Yielder(0) });
    expect(second).toEqual(first);
    expect(first.themes.length).toBeGreaterThan(1);
    expect(first.questions.every((q) => q.keyphrases.length === 10 && q.themes.length > 0)).toBe(true);
  }, LONG);

  it('reports progress in answers analysed, up to twice their number', async () => {
    const answers = syntheticAnswers(200);
    const seen: [number, number][] = [];
    await analyzeOffline({ questions, answers }, { onProgress: (done, total) => seen.push([done, total]) });
    expect(seen.at(-1)).toEqual([400, 400]);
    expect(seen.every(([done], i) => i === 0 || done > seen[i - 1][0])).toBe(true);
  });

  it('gives way to the event loop while it analyses many answers (how long it holds it is measured by npm run bench, not here)', async () => {
    const answers = syntheticAnswers(5_000);
    const yielder = new Yielder(0);
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    await analyzeOffline({ questions, answers }, { yielder });
    clearInterval(timer);
    expect(yielder.yields).toBeGreaterThan(10);
    expect(turns).toBeGreaterThan(0);
  }, LONG);
});

describe('coding at scale, codebooks and languages', () => {
  const LONG = 60_000;
  const MEAL_KIT = [
    'The price is way too high for what you get.',
    'Honestly the price went up twice this year.',
    'Price is the main thing, it costs more than groceries.',
    'Deliveries are constantly late and the meat was warm once.',
    'My delivery was late three times, the box arrived at night.',
    'Late deliveries are the worst part, I waited until 9pm.',
    'So much packaging waste, every ingredient in its own plastic bag.',
    'The packaging is wasteful, too much plastic and cardboard.',
    'I hate the packaging waste, the recycling bin is always full.',
    'I love the recipe variety, new dishes every week.',
    'Recipe variety is great, we tried Thai food for the first time.',
    'Good.',
  ];
  const mealKit = (copies: number) =>
    Array.from({ length: copies }, (_, c) => MEAL_KIT.map((text, i) => answer(`m${c}-${i}`, 0, text, countWords(text), null))).flat();

  it('codes a 12-invite study into its known groups, labels from the answers, the odd one in other', async () => {
    const answers = [
      ...mealKit(1),
      answer('de', 0, 'Die Lieferung von FreshBox kommt oft zu spät.', 8, null, { language: 'de' }),
      answer('es', 0, 'FreshBox es caro pero las recetas son buenas.', 8, null, { language: 'es' }),
    ];
    const result = await analyzeOffline({ questions: [{ questionIndex: 0, question: 'What do you think?' }], answers, productName: 'FreshBox' });
    const [q0] = result.questions;
    expect(q0.themes.map((t) => [t.theme, t.answers])).toEqual([
      ['deliveries', 3],
      ['packaging waste', 3],
      ['price', 3],
      ['recipe variety', 2],
    ]);
    // The German and Spanish answers share only the product's name: no theme of their own.
    expect(q0.other).toEqual({ answers: 3, mentions: 3 });
    expect(result.codes.filter((c) => c.themeIDs.length === 0).map((c) => c.linkID)).toEqual(['m0-11', 'de', 'es']);
    for (const theme of q0.themes) expect(MEAL_KIT.some((text) => text.includes(theme.description))).toBe(true);
    // A description of three words or more is its theme's first quote: traced to its answer, erased with it.
    for (const theme of q0.themes) expect(theme.quotes[0].text).toBe(theme.description);
  });

  it('still finds themes in a study of 2,400 answers to one question, and codes each answer', async () => {
    const answers = syntheticAnswers(2400, { questions: 1, seed: 3 });
    const result = await analyzeOffline({ questions: [{ questionIndex: 0, question: 'What do you think?' }], answers });
    const [q0] = result.questions;
    expect(q0.themes.length).toBeGreaterThanOrEqual(3);
    expect(q0.coverage).toBeGreaterThanOrEqual(0.9);
    expect(result.codes).toHaveLength(answers.length);
    expect(q0.themes.reduce((sum, t) => sum + t.mentions, 0) + q0.other.mentions).toBe(q0.themes.length ? answers.filter((a) => a.questionIndex === 0).length : 0);
  }, LONG);

  it('codes against a codebook: its themes kept in order with zero counts when unmatched, the rest emerging, the same every time', async () => {
    const answers = mealKit(2);
    const codebook = [
      { questionIndex: 0, themes: [
        { theme: 'Cost', description: 'The price is too high', examples: ['it costs more than groceries'] },
        { theme: 'Customer service', description: null, examples: ['the agent never called back'] },
        { theme: 'Late deliveries', description: null, examples: ['my delivery was late'] },
      ] },
    ];
    const input = { questions: [{ questionIndex: 0, question: 'Q' }], answers, options: { maxThemes: 6, codebook } };
    const first = await analyzeOffline(input);
    const again = await analyzeOffline(structuredClone(input));
    expect(again.codes).toEqual(first.codes);
    const themes = first.questions[0].themes;
    expect(themes.slice(0, 3).map((t) => [t.themeID, t.theme, t.emerging])).toEqual([
      ['q0-c1', 'Cost', false],
      ['q0-c2', 'Customer service', false],
      ['q0-c3', 'Late deliveries', false],
    ]);
    expect(themes[0].mentions).toBeGreaterThanOrEqual(4);
    expect([themes[1].answers, themes[1].mentions]).toEqual([0, 0]);
    expect(themes[2].mentions).toBeGreaterThanOrEqual(4);
    const emerging = themes.slice(3);
    expect(emerging.length).toBeGreaterThan(0);
    expect(emerging.every((t) => t.emerging && /^q0-t\d+$/.test(t.themeID))).toBe(true);
    expect(emerging.map((t) => t.theme)).toEqual(expect.arrayContaining(['packaging waste']));
    expect(themes.length).toBeLessThanOrEqual(6);
  });

  it('gives the same themes and codes whatever order the answers are read in', async () => {
    // Themes that tie on size and labels that tie on counts ("plastic", "packaging"): where an order shows.
    const texts = [
      'My box arrived late twice this month and the fish was warm.',
      'The price is way too high for two people, so I paused the subscription.',
      'Honestly it costs too much money now, the price went up again this spring.',
      'Too expensive compared with the supermarket, the price per portion hurts our budget.',
      'The price is the problem: too expensive for a student like me.',
      'Deliveries are constantly late, the courier came after nine in the evening.',
      'The box was late again on Tuesday and the meat was not cold.',
      'My delivery is late most weeks, I waited the whole afternoon for it.',
      'So much plastic packaging, every ingredient wrapped separately, it is wasteful.',
      'The packaging waste bothers me, too much plastic and cardboard each week.',
      'Less plastic packaging please, the waste from one box fills my recycling bin.',
      'Too much packaging waste, the little plastic bags for spices are pointless.',
      'I mostly cook on weekends when the kids visit their grandparents in town.',
    ];
    const answers = texts.map((text, i) => answer(`p${i}`, 0, text, countWords(text), null));
    const shuffle = seededRandom(1);
    const orders = [answers, [...answers].reverse(), answers.map((a) => ({ a, key: shuffle() })).sort((x, y) => x.key - y.key).map(({ a }) => a)];
    const results = await Promise.all(orders.map((order) => analyzeOffline({ questions: [{ questionIndex: 0, question: 'Q' }], answers: order })));
    const byLink = (result: AnalysisResult) => Object.fromEntries(result.codes.map((c) => [c.linkID, c.themeIDs]));
    const themes = (result: AnalysisResult) => result.questions[0].themes.map((t) => [t.themeID, t.theme, t.answers, t.description]);
    expect(themes(results[0]).length).toBeGreaterThanOrEqual(3);
    for (const result of results.slice(1)) {
      expect(themes(result)).toEqual(themes(results[0]));
      expect(byLink(result)).toEqual(byLink(results[0]));
    }
  }, LONG);

  it('puts an answer held in a theme by one word it shares with one member in other', async () => {
    const late = ['My box arrived late twice this month.', 'Deliveries are constantly late, the courier came after nine in the evening.', 'The box was late again on Tuesday.', 'My delivery is late most weeks.'];
    const stray = 'My neighbour plays the trumpet every single evening and it is quite loud.';
    const answers = [...mealKit(1), ...late.map((text, i) => answer(`late${i}`, 0, text, countWords(text), null)), answer('stray', 0, stray, countWords(stray), null)];
    const result = await analyzeOffline({ questions: [{ questionIndex: 0, question: 'Q' }], answers });
    expect(result.codes.find((c) => c.linkID === 'stray')!.themeIDs).toEqual([]);
    const lateTheme = result.questions[0].themes.find((t) => /late|deliver/i.test(t.theme))!;
    expect(result.codes.filter((c) => c.linkID.startsWith('late')).map((c) => c.themeIDs)).toEqual(late.map(() => [lateTheme.themeID]));
  }, LONG);

  it('groups answers within their language, every theme carrying it', async () => {
    const es = ['El precio es demasiado alto.', 'El precio subió otra vez.', 'Pago un precio muy alto.', 'La entrega llega tarde.', 'La entrega siempre tarde.', 'Otra entrega tarde hoy.'];
    const ja = ['配達がいつも遅いです。', '配達が遅れました。', '配達が遅すぎます。', '価格が高いです。', '価格が高すぎます。', '価格がまた上がりました。'];
    const answers = [
      ...mealKit(1),
      ...es.map((text, i) => answer(`es${i}`, 0, text, countWords(text), null, { language: 'es' })),
      ...ja.map((text, i) => answer(`ja${i}`, 0, text, countWords(text), null, { language: 'ja' })),
    ];
    const result = await analyzeOffline({ questions: [{ questionIndex: 0, question: 'Q' }], answers });
    const themes = result.questions[0].themes;
    expect(new Set(themes.map((t) => t.language))).toEqual(new Set(['en', 'es', 'ja']));
    expect(themes.filter((t) => t.language === 'es').map((t) => t.theme).sort()).toEqual(['entrega', 'precio']);
    expect(themes.filter((t) => t.language === 'ja').map((t) => t.theme).sort()).toEqual(['価格', '配達']);
    // A theme's answers are all in its language.
    for (const theme of themes) {
      const members = result.codes.filter((c) => c.themeIDs.includes(theme.themeID)).map((c) => answers.find((a) => a.linkID === c.linkID)!.language);
      expect(new Set(members)).toEqual(new Set([theme.language]));
    }
  });
});
