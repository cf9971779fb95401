import type { Keyphrase } from './analysis.types';
import { RUN_BREAK, type Corpus } from './corpus';
import { joinTerms } from './tokenize';
import type { Yielder } from './yielder';

export const MAX_KEYPHRASES = 10;
/** The candidate phrases kept per group, those of the most invites (all of a tie or none). */
const MAX_CANDIDATES = 2000;
/**
 * A longer phrase found in at least this share of the invites of a phrase it contains stands for it:
 * "customer support" rather than "support" when most of those who say "support" say "customer support".
 */
const SUBSUMES = 0.7;

/** A candidate phrase of one group of answers: 1 to 3 consecutive terms of a run. */
export interface PhraseStat {
  terms: readonly number[];
  /** Distinct invites whose answers contain it. */
  invites: number;
}

/** A group's candidate phrases, by their term ids joined with commas. */
export type PhraseCounts = Map<string, PhraseStat>;

/**
 * Counts distinct invites per key; it is fed answers grouped by invite, so one last-seen invite per key
 * suffices. Keys are numbers (a Map of strings or a generator over entries made most of a large
 * report's phrase-counting garbage); slot `s` holds `keys[s]` and its `counts[s]`.
 */
class InviteCounter {
  private readonly slots = new Map<number, number>();
  readonly keys: number[] = [];
  readonly counts: number[] = [];
  private readonly lastLinks: number[] = [];

  add(key: number, link: number): void {
    const slot = this.slots.get(key);
    if (slot === undefined) {
      this.slots.set(key, this.keys.length);
      this.keys.push(key);
      this.counts.push(1);
      this.lastLinks.push(link);
    } else if (this.lastLinks[slot] !== link) {
      this.lastLinks[slot] = link;
      this.counts[slot]++;
    }
  }

  slotOf(key: number): number | undefined {
    return this.slots.get(key);
  }

  count(key: number): number {
    const slot = this.slots.get(key);
    return slot === undefined ? 0 : this.counts[slot];
  }
}

/**
 * The candidate phrases of some answers with the invites that use each. Longer phrases are counted
 * only where all their parts are frequent enough (a phrase is never in more invites than its parts),
 * which keeps the count of pairs and triples small on large groups. A phrase must be in two invites
 * (one when a single invite answered): a phrase of a single interviewee says nothing about the group.
 * Of the rest, the MAX_CANDIDATES in the most invites are kept; a phrase that is kept keeps the parts
 * it contains, which are in as many invites at least.
 */
export async function countPhrases(corpus: Corpus, docs: readonly number[], yielder: Yielder): Promise<PhraseCounts> {
  const { tokens, starts, links } = corpus;
  const vocabulary = corpus.terms.length;
  const order = [...docs].sort((a, b) => links[a] - links[b] || a - b);
  const inviteCount = new Set(order.map((d) => links[d])).size;
  const minInvites = inviteCount >= 2 ? 2 : 1;

  const unigrams = new Int32Array(vocabulary);
  const lastLink = new Int32Array(vocabulary).fill(-1);
  for (const d of order) {
    for (let i = starts[d]; i < starts[d + 1]; i++) {
      const id = tokens[i];
      if (id !== RUN_BREAK && lastLink[id] !== links[d]) {
        lastLink[id] = links[d];
        unigrams[id]++;
      }
    }
    if (yielder.due()) await yielder.giveWay();
  }

  const frequent = (id: number) => id !== RUN_BREAK && unigrams[id] >= minInvites;
  // Pairs as numbers, a * vocabulary + b (safe while vocabulary² < 2⁵³); triples as their pair's slot * vocabulary + c.
  const bigrams = new InviteCounter();
  for (const d of order) {
    for (let i = starts[d]; i + 1 < starts[d + 1]; i++) {
      if (frequent(tokens[i]) && frequent(tokens[i + 1])) bigrams.add(tokens[i] * vocabulary + tokens[i + 1], links[d]);
    }
    if (yielder.due()) await yielder.giveWay();
  }
  const frequentPair = (a: number, b: number) => frequent(a) && frequent(b) && bigrams.count(a * vocabulary + b) >= minInvites;
  const trigrams = new InviteCounter();
  for (const d of order) {
    for (let i = starts[d]; i + 2 < starts[d + 1]; i++) {
      const a = tokens[i];
      const b = tokens[i + 1];
      const c = tokens[i + 2];
      if (frequentPair(a, b) && frequentPair(b, c)) trigrams.add(bigrams.slotOf(a * vocabulary + b)! * vocabulary + c, links[d]);
    }
    if (yielder.due()) await yielder.giveWay();
  }

  // Only the phrases of the most invites are kept: the rest would hardly rank, and would cost memory.
  const histogram = new Int32Array(inviteCount + 1);
  for (let id = 0; id < vocabulary; id++) histogram[unigrams[id]]++;
  for (const invites of bigrams.counts) histogram[invites]++;
  for (const invites of trigrams.counts) histogram[invites]++;
  let floor = inviteCount;
  while (floor > minInvites && histogram[floor] === 0) floor--;
  for (let kept = histogram[floor]; floor > minInvites && kept + histogram[floor - 1] <= MAX_CANDIDATES; ) kept += histogram[--floor];
  floor = Math.max(floor, minInvites);
  if (yielder.due()) await yielder.giveWay();

  const counts: PhraseCounts = new Map();
  for (let id = 0; id < vocabulary; id++) {
    if (unigrams[id] >= floor) counts.set(String(id), { terms: [id], invites: unigrams[id] });
  }
  if (yielder.due()) await yielder.giveWay();
  const pairOf = (key: number) => [Math.floor(key / vocabulary), key % vocabulary];
  bigrams.keys.forEach((key, slot) => {
    const invites = bigrams.counts[slot];
    if (invites < floor) return;
    const terms = pairOf(key);
    counts.set(terms.join(','), { terms, invites });
  });
  if (yielder.due()) await yielder.giveWay();
  trigrams.keys.forEach((key, slot) => {
    const invites = trigrams.counts[slot];
    if (invites < floor) return;
    const terms = [...pairOf(bigrams.keys[Math.floor(key / vocabulary)]), key % vocabulary];
    counts.set(terms.join(','), { terms, invites });
  });
  return counts;
}

/** How the phrases spread over all groups: the "f" and "A" of class-based TF-IDF. */
export interface PhraseSpread {
  /** A phrase's invites summed over the groups where it is a candidate (where it is rare it is not counted). */
  invites: Map<string, number>;
  /** The mean over groups of the invites of all their candidates. */
  averageMass: number;
}

export function phraseSpread(groups: readonly PhraseCounts[]): PhraseSpread {
  const invites = new Map<string, number>();
  let mass = 0;
  for (const counts of groups) {
    for (const [key, stat] of counts) {
      invites.set(key, (invites.get(key) ?? 0) + stat.invites);
      mass += stat.invites;
    }
  }
  return { invites, averageMass: mass / Math.max(1, groups.length) };
}

/** Whether `inner` is a run of consecutive terms of `outer`. */
function contains(outer: readonly number[], inner: readonly number[]): boolean {
  for (let i = 0; i + inner.length <= outer.length; i++) {
    if (inner.every((id, j) => outer[i + j] === id)) return true;
  }
  return false;
}

/**
 * The keyphrases of one group (a question's answers) among all groups (the interview's questions), by
 * class-based TF-IDF, the weighting BERTopic labels its topics with: a phrase weighs the invites of the
 * group that use it times log(1 + A / f), f its invites over all groups and A the mean over groups of
 * their phrase mass. So a phrase that every question's answers share (the product's name) ranks below
 * one particular to this question. Phrases that a longer phrase stands for are dropped, and of two
 * phrases one of which contains the other only the better ranked is listed.
 */
export async function rankKeyphrases(corpus: Corpus, group: PhraseCounts, spread: PhraseSpread, yielder: Yielder): Promise<Keyphrase[]> {
  const subsumed = new Set<string>();
  for (const stat of group.values()) {
    if (stat.terms.length < 2) continue;
    for (let length = 1; length < stat.terms.length; length++) {
      for (let i = 0; i + length <= stat.terms.length; i++) {
        const key = stat.terms.slice(i, i + length).join(',');
        const part = group.get(key);
        if (part && stat.invites >= SUBSUMES * part.invites) subsumed.add(key);
      }
    }
    if (yielder.due()) await yielder.giveWay();
  }

  const ranked: { stat: PhraseStat; phrase: string; score: number }[] = [];
  for (const [key, stat] of group) {
    if (subsumed.has(key)) continue;
    const phrase = joinTerms(stat.terms.map((id) => corpus.terms[id]));
    const invitesOverall = Math.max(1, spread.invites.get(key) ?? stat.invites);
    ranked.push({ stat, phrase, score: stat.invites * Math.log(1 + spread.averageMass / invitesOverall) });
    if (yielder.due()) await yielder.giveWay();
  }
  ranked.sort((a, b) => b.score - a.score || (a.phrase < b.phrase ? -1 : a.phrase > b.phrase ? 1 : 0));

  const chosen: typeof ranked = [];
  for (const candidate of ranked) {
    if (chosen.length === MAX_KEYPHRASES) break;
    const overlaps = chosen.some(
      (kept) => kept.phrase === candidate.phrase || contains(kept.stat.terms, candidate.stat.terms) || contains(candidate.stat.terms, kept.stat.terms),
    );
    if (!overlaps) chosen.push(candidate);
  }
  return chosen.map(({ stat, phrase }) => ({ phrase, answers: stat.invites }));
}
