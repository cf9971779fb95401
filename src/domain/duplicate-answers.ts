/** A duplicate answer is one long enough not to be a common phrase. */
const DUPLICATE_MIN_WORDS = 8;

/** Words as the quality checks count them: runs of non-space. */
export function wordCount(text: string): number {
  return text.trim().split(/\s+/u).filter(Boolean).length;
}

/**
 * Whether an answer is long enough to be compared with the interview's other answers (8 words or more).
 * Here, not in recruitment/, because both sides of the check need it: recruitment's quality check
 * compares only such answers, and invites keep digests only of such answers, since a shorter one can
 * never equal a compared one.
 */
export function isComparable(answer: string): boolean {
  return wordCount(answer) >= DUPLICATE_MIN_WORDS;
}
