import { isComparable, wordCount } from './duplicate-answers';

describe('duplicate answers', () => {
  it('counts words as runs of non-space, whatever the spacing', () => {
    expect(wordCount('  one\ttwo\n three  ')).toBe(3);
    expect(wordCount('')).toBe(0);
    expect(wordCount('   ')).toBe(0);
  });

  it('compares answers of 8 words or more only', () => {
    expect(isComparable('one two three four five six seven')).toBe(false);
    expect(isComparable('one two three four five six seven eight')).toBe(true);
    expect(isComparable(' one  two three four five six seven eight ')).toBe(true);
  });
});
