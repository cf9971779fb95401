import { answerSentiment, foldMean, sentimentOf } from './sentiment';

describe(sentimentOf.name, () => {
  it.each([
    ['I love it, it is really great!', 0.5, 1],
    ['This is terrible and I hate the new pricing.', -1, -0.5],
    ['It is not bad.', 0, 1],
    ['We use it on Mondays.', 0, 0],
  ])('scores %p between %p and %p', (text, low, high) => {
    const score = sentimentOf(text);
    expect(score).toBeGreaterThanOrEqual(low);
    expect(score).toBeLessThanOrEqual(high);
  });

  it('stays within -1 and 1 for extreme text', () => {
    expect(sentimentOf('BEST BEST BEST!!! love love love 😍😍😍')).toBeLessThanOrEqual(1);
    expect(sentimentOf('WORST WORST!!! hate hate hate awful horrible')).toBeGreaterThanOrEqual(-1);
  });
});

describe(answerSentiment.name, () => {
  it('reads complaints as negative, sentence by sentence (the issue\'s examples)', () => {
    expect(answerSentiment('Deliveries are constantly late… meat was warm… Customer support only offered a credit.', 'en')).toBeLessThan(-0.05);
    expect(answerSentiment('The price is way too high… I paused my subscription', 'en')).toBeLessThan(-0.05);
  });

  it('scores an answer with no word that carries sentiment neutral, and gives no score only where none is possible', () => {
    expect(answerSentiment('No.', 'en')).toBe(0);
    expect(answerSentiment('We use it on Mondays.', 'en')).toBe(0);
    expect(answerSentiment('tlhIngan Hol vIjatlh', 'tlh')).toBeNull();
    expect(answerSentiment('42 …', 'en')).toBeNull();
  });

  it('reads what was hoped for and not had as a complaint', () => {
    expect(answerSentiment('I expected better.', 'en')).toBeLessThan(-0.05);
    expect(answerSentiment('It should have been much better.', 'en')).toBeLessThan(-0.05);
    expect(answerSentiment('I would recommend it.', 'en')).toBeGreaterThan(0.05);
  });

  it('reads phrases whose feeling is not their words\': coming back or not, idioms, warnings', () => {
    for (const text of ["I won't be back.", "I don't think we'll be going back anytime soon.", 'Never again.', "I won't renew my plan.", 'We will not return.', "Don't waste your time here.", 'I buy my vegetables elsewhere now.', 'Delivery took forever.']) {
      expect({ text, negative: answerSentiment(text, 'en')! < 0 }).toEqual({ text, negative: true });
    }
    for (const text of ["We'll definitely come back.", 'The curry is to die for.', "I couldn't be happier with it.", "I can't wait for the next box.", 'I really like the recipes.']) {
      expect({ text, positive: answerSentiment(text, 'en')! > 0 }).toEqual({ text, positive: true });
    }
    // A product sent back is not a feeling, and "I'd like" is a wish: neither is scored.
    expect(answerSentiment('I returned the box on Monday.', 'en')).toBe(0);
    expect(answerSentiment("I'd like more recipes.", 'en')).toBe(answerSentiment('More recipes.', 'en'));
  });

  it('knows the words VADER lacks from a larger lexicon (ML-SentiCon), VADER leading where both have a word', () => {
    expect(answerSentiment('The courier was unhelpful.', 'en')).toBeLessThan(-0.05);
    expect(answerSentiment('The rooms were spotless.', 'en')).toBeGreaterThan(0.05);
  });

  it('looks words up as written or as an inflection of an entry, never by a stem that another word shares', () => {
    // "precio" (price) and "precioso" (lovely) share the Snowball stem "prec".
    expect(answerSentiment('El precio es alto.', 'es')).toBe(0);
    expect(answerSentiment('Es demasiado caro.', 'es')).toBeLessThan(-0.05);
    // Kana endings are no entries: "した" (did) is not したう (to adore), "めま" not めまい (dizziness).
    expect(answerSentiment('同僚がチームの会議で紹介してくれて、その日のうちに使い始めました。', 'ja')).toBe(0);
  });

  it('turns a negated word and weighs what follows "but" more', () => {
    expect(answerSentiment('It is not good.', 'en')).toBeLessThan(-0.05);
    expect(answerSentiment('The food is great, but the delivery is always late and the box is broken.', 'en')).toBeLessThan(-0.05);
    expect(answerSentiment('The delivery was late, but the food is excellent and I love it.', 'en')).toBeGreaterThan(0.05);
  });

  it.each([
    ['ja', '配達がいつも遅くて残念です。', -1],
    ['ja', '料理はとても美味しかったです。', 1],
    ['ja', '価格が高すぎると思います。', -1],
    ['es', 'Me encanta la variedad de recetas.', 1],
    ['de', 'Die Lieferung kommt immer zu spät, sehr enttäuschend.', -1],
    ['de', 'Das Essen ist ausgezeichnet!', 1],
    ['fr', 'Le service est horrible.', -1],
    ['fr', "C'est excellent.", 1],
    ['zh', '价格太贵了，我很失望。', -1],
    ['zh', '服务很好，我很满意。', 1],
    ['it', 'Il cibo è ottimo.', 1],
    ['nl', 'Het eten was slecht.', -1],
    ['tr', 'Yemek çok kötüydü.', -1],
    ['pl', 'Jedzenie było wspaniałe.', 1],
    ['ar', 'الخدمة ممتازة', 1],
  ])('scores %s "%s" with sign %d', (language, text, sign) => {
    const score = answerSentiment(text, language);
    expect(score).not.toBeNull();
    expect(Math.sign(score!) * Math.min(1, Math.abs(score!) / 0.05)).toBe(sign);
  });
});

describe(foldMean.name, () => {
  it('is the mean of the new scores when there were none', () => {
    expect(foldMean(null, 0, [0.5, -0.1])).toEqual({ mean: 0.2, count: 2 });
  });

  it('weighs earlier scores by how many there were', () => {
    expect(foldMean(0.5, 2, [-1])).toEqual({ mean: 0, count: 3 });
  });

  it('keeps the earlier mean when there is nothing new, and null when there never was anything', () => {
    expect(foldMean(0.25, 4, [])).toEqual({ mean: 0.25, count: 4 });
    expect(foldMean(null, 0, [])).toEqual({ mean: null, count: 0 });
  });
});
