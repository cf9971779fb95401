import { foldMean, sentimentOf } from './sentiment';

describe(sentimentOf.name, () => {
  it.each([
    ['I love it, it is really great!', 0.5, 1],
    ['This is terrible and I hate the new pricing.', -1, -0.5],
    ['It is not bad.', 0, 1],
    ['We use it on Mondays.', -0.05, 0.05],
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
