import { ErasedWords, wordsOf } from './erased-words';

describe(ErasedWords.name, () => {
  const sut = new ErasedWords(['I am Ana Torres from Lisbon, and the app crashed twice.', '会議のメモを毎日チームと共有しています。'], ['Ana Torres']);

  it('finds four consecutive words of an erased answer, whatever the case, punctuation and spacing', () => {
    expect(sut.in('Users in Lisbon say the app crashes')).toBe(false);
    expect(sut.in('LISBON — and   the APP crashed')).toBe(true);
    expect(sut.in('the app crashed twice')).toBe(true);
    expect(sut.in('the app crashed once')).toBe(false);
  });

  it("finds a word of the erased person's name that they said themselves", () => {
    expect(sut.in('Torres reports crashes')).toBe(true);
    expect(sut.in('Ana said so')).toBe(true);
  });

  it('counts eight characters as a run in Chinese and Japanese', () => {
    expect(sut.in('チームと共有しています')).toBe(true);
    expect(sut.in('メモを毎日')).toBe(false);
  });

  it('finds nothing when nothing was erased', () => {
    const none = new ErasedWords([], ['Someone']);
    expect(none.empty).toBe(true);
    expect(none.in('Someone said the app crashed twice')).toBe(false);
  });

  it('splits words as a reader would', () => {
    expect(wordsOf("Don't   STOP—now! 東京 ok")).toEqual(['don', 't', 'stop', 'now', '東', '京', 'ok']);
  });
});
