import type { InviteQuality, QualityFlag } from '../invites/invite-quality';
import { QUALITY_FLAGS } from '../invites/invite-quality';

/** What the room's script measured while an answer was written: counts and a time, never the keystrokes. */
export interface AnswerSignals {
  typedChars?: number;
  pastedChars?: number;
  durationMs?: number;
}

/** Answers shorter than this say too little to judge how they were written. */
const MIN_JUDGED_CHARS = 20;
/**
 * Faster than people type: about 17 characters a second is 200 words a minute, beyond what typists
 * sustain outside contests; an answer typed faster was not typed.
 */
const MAX_CHARS_PER_SECOND = 17;
/** Each flag takes this much off the score (1 = no doubt). */
const FLAG_WEIGHT = 0.25;

/** Characters as a person counts them (code points, not UTF-16 units). */
function length(text: string): number {
  return [...text.trim()].length;
}

/**
 * A token that is not a word: no letter at all, the same character four times or more, or (in Latin
 * script) six consonants in a row, as keyboard mashing makes ("sdfghjk").
 */
function isNonWord(token: string): boolean {
  if (!/\p{L}/u.test(token)) return true;
  if (/(.)\1{3,}/u.test(token)) return true;
  return /[bcdfghjklmnpqrstvwxz]{6,}/i.test(token);
}

/** An answer that is not words: most of its tokens are not. */
export function isLowEffort(answer: string): boolean {
  const tokens = answer.trim().split(/\s+/u).filter(Boolean);
  if (tokens.length === 0) return true;
  return tokens.filter(isNonWord).length * 2 > tokens.length;
}

/** The flags one answer's signals raise: pasted, too_fast (none without signals, or for a short answer). */
export function signalFlags(answer: string, signals: AnswerSignals): QualityFlag[] {
  const chars = length(answer);
  if (chars < MIN_JUDGED_CHARS) return [];
  const flags: QualityFlag[] = [];
  const { typedChars, pastedChars, durationMs } = signals;
  // Most of it pasted, or most of it arrived without being typed or pasted (set by a script).
  if ((pastedChars !== undefined && pastedChars * 2 > chars) || (typedChars !== undefined && typedChars + (pastedChars ?? 0) < chars / 2)) flags.push('pasted');
  if (durationMs !== undefined) {
    const typed = Math.min(chars, typedChars ?? chars);
    if (typed >= MIN_JUDGED_CHARS && typed / Math.max(durationMs / 1000, 0.001) > MAX_CHARS_PER_SECOND) flags.push('too_fast');
  }
  return flags;
}

/** The invite's quality with `raised` added: flags stay once raised, in the contract's order. */
export function qualityWith(previous: InviteQuality | null, raised: readonly QualityFlag[]): InviteQuality {
  const all = new Set<QualityFlag>([...(previous?.flags ?? []), ...raised]);
  const flags = QUALITY_FLAGS.filter((flag) => all.has(flag));
  return { score: Math.max(0, Math.round((1 - FLAG_WEIGHT * flags.length) * 100) / 100), flags };
}
