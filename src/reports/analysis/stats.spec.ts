import { median, sentimentSplit } from './stats';

describe('median', () => {
  it('is null without values', () => expect(median([])).toBeNull());
  it('takes the middle of an odd count', () => expect(median([9, 1, 5])).toBe(5));
  it('takes the mean of the two middle values of an even count', () => expect(median([10, 3, 4, 1])).toBe(3.5));
  it('sorts numerically, not as strings', () => expect(median([100, 20, 3])).toBe(20));
});

describe('sentimentSplit', () => {
  it('splits at -0.05 and 0.05 inclusive and leaves null scores out', () => {
    expect(sentimentSplit([-0.05, -0.0499, 0, 0.0499, 0.05, 0.9, null, -1])).toEqual({
      // (-0.05 - 0.0499 + 0 + 0.0499 + 0.05 + 0.9 - 1) / 7 = -0.1 / 7 = -0.0142857…
      mean: -0.0143,
      negative: 2,
      neutral: 3,
      positive: 2,
      scored: 7,
    });
  });

  it('rounds the mean to four decimals', () => {
    expect(sentimentSplit([0.12345, 0.2]).mean).toBe(0.1617);
  });

  it('has a null mean and zero counts when nothing was scored', () => {
    expect(sentimentSplit([null, null])).toEqual({ mean: null, negative: 0, neutral: 0, positive: 0, scored: 0 });
    expect(sentimentSplit([])).toEqual({ mean: null, negative: 0, neutral: 0, positive: 0, scored: 0 });
  });
});
