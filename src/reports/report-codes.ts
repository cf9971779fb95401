import type { AnswerCode, QuestionReport, Quote, ReportResult, SegmentReport, Theme } from './analysis/analysis.types';
import { median, sentimentSplit } from './analysis/stats';

/**
 * An answer's codes with what the report keeps of the answer: getCodes and the shared page show its
 * text, and an erasure recounts the report's figures from the words and scores of the answers left.
 */
export interface CodedAnswer extends AnswerCode {
  answer: string;
  words: number;
  sentiment: number | null;
}

/** What a recount reads of a coded answer. */
export type CodeFacts = Pick<CodedAnswer, 'linkID' | 'questionIndex' | 'themeIDs' | 'acrossThemeIDs' | 'words' | 'sentiment'>;

/** A report's result as it is stored: its codes are kept apart (report_codes). */
export type StoredResult = Omit<ReportResult, 'codes'> & {
  /** What erasures have taken out of the report since it was made (zeros until one does). */
  erased: ErasedFigures;
};

/** What erasures took out of a stored report. */
export interface ErasedFigures {
  /** Invites whose answers, codes and quotes were taken out. */
  invites: number;
  /** Quotes taken out with them. */
  quotes: number;
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** The key of a question row: its index, or `x` for the unattributed answers. */
const rowKey = (questionIndex: number | null) => (questionIndex === null ? 'x' : String(questionIndex));

/** A theme's interviewees and answers. */
class ThemeCount {
  readonly links = new Set<string>();
  mentions = 0;
  add(linkID: string): void {
    this.links.add(linkID);
    this.mentions++;
  }
}

/** One question row's answers as the codes say. */
class RowCount {
  readonly links = new Set<string>();
  readonly otherLinks = new Set<string>();
  readonly words: number[] = [];
  readonly scores: (number | null)[] = [];
  otherMentions = 0;
  answers = 0;
  readonly themes = new Map<string, ThemeCount>();
}

/** An invite with a segment, as a report made at its asOf counts it. */
export interface SegmentedInvite {
  linkID: string;
  segment: string;
  completed: boolean;
}

/** Per segment: its invites, those completed, and for each theme the distinct invites of the segment coded with it. */
export function segmentsOf(invites: readonly SegmentedInvite[], codes: readonly Pick<AnswerCode, 'linkID' | 'themeIDs' | 'acrossThemeIDs'>[]): SegmentReport[] {
  const segmentOf = new Map(invites.map((i) => [i.linkID, i.segment]));
  const bySegment = new Map<string, { invites: number; completed: number; themes: Map<string, Set<string>> }>();
  for (const invite of invites) {
    const entry = bySegment.get(invite.segment) ?? { invites: 0, completed: 0, themes: new Map() };
    entry.invites += 1;
    if (invite.completed) entry.completed += 1;
    bySegment.set(invite.segment, entry);
  }
  for (const code of codes) {
    const segment = segmentOf.get(code.linkID);
    if (segment === undefined) continue;
    const themes = bySegment.get(segment)!.themes;
    for (const themeID of [...code.themeIDs, ...code.acrossThemeIDs]) {
      const members = themes.get(themeID) ?? new Set<string>();
      members.add(code.linkID);
      themes.set(themeID, members);
    }
  }
  return [...bySegment.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([segment, entry]) => ({
      segment,
      invites: entry.invites,
      completed: entry.completed,
      themes: [...entry.themes.entries()]
        .map(([themeID, members]) => ({ themeID, answers: members.size }))
        .sort((a, b) => b.answers - a.answers || (a.themeID < b.themeID ? -1 : 1)),
    }));
}

/**
 * Every figure of a report that follows from its coded answers, counted by the server: per question the
 * interviewees who answered, median words, the sentiment split, each theme's interviewees (`answers`)
 * and answers (`mentions`), `coverage` and `other`; across the interview each theme's counts, the median
 * answer and the sentiment of all answers. Fed the codes one at a time (an erasure reads them a page at
 * a time), then applied to the result. An answer whose question the report has no row for counts with
 * the unattributed answers, as the analysis reports it.
 */
export class CodeTally {
  private readonly rows = new Map<string, RowCount>();
  private readonly across = new Map<string, ThemeCount>();
  private readonly words: number[] = [];
  private readonly scores: (number | null)[] = [];

  constructor(questions: readonly Pick<QuestionReport, 'questionIndex'>[]) {
    for (const q of questions) this.rows.set(rowKey(q.questionIndex), new RowCount());
  }

  add(code: CodeFacts): void {
    this.words.push(code.words);
    this.scores.push(code.sentiment);
    for (const id of code.acrossThemeIDs) count(this.across, id).add(code.linkID);
    const row = this.rows.get(rowKey(code.questionIndex)) ?? this.rows.get('x');
    if (!row) return;
    row.answers++;
    row.links.add(code.linkID);
    row.words.push(code.words);
    row.scores.push(code.sentiment);
    if (code.themeIDs.length === 0) {
      row.otherMentions++;
      row.otherLinks.add(code.linkID);
    }
    for (const id of code.themeIDs) count(row.themes, id).add(code.linkID);
  }

  /**
   * The counted figures written into `result` (in place): per question, each theme, and (when the
   * result has them: a report's, not an analysis') the median answer and the sentiment of all answers.
   */
  applyTo(result: Pick<StoredResult, 'questions' | 'themes'> & Partial<Pick<StoredResult, 'medianAnswerWords' | 'sentiment'>>): void {
    for (const question of result.questions) {
      const row = this.rows.get(rowKey(question.questionIndex)) ?? new RowCount();
      question.answered = row.links.size;
      question.medianWords = median(row.words);
      question.sentiment = sentimentSplit(row.scores);
      question.coverage = row.answers === 0 ? null : round4((row.answers - row.otherMentions) / row.answers);
      question.other = { answers: row.otherLinks.size, mentions: row.otherMentions };
      setCounts(question.themes, row.themes);
    }
    setCounts(result.themes, this.across);
    if ('sentiment' in result) {
      result.medianAnswerWords = median(this.words);
      result.sentiment = sentimentSplit(this.scores);
    }
  }
}

function count(map: Map<string, ThemeCount>, id: string): ThemeCount {
  let found = map.get(id);
  if (!found) map.set(id, (found = new ThemeCount()));
  return found;
}

function setCounts(themes: Theme[], counts: ReadonlyMap<string, ThemeCount>): void {
  for (const theme of themes) {
    const found = counts.get(theme.themeID);
    theme.answers = found?.links.size ?? 0;
    theme.mentions = found?.mentions ?? 0;
  }
}

/**
 * Gives every theme without an identifier its place's (`q<k>-t<n>`, `qx-t<n>`, `all-t<n>`, n from 1 in
 * the list's order): an analysis made before themes had identifiers names none.
 */
export function numberThemes(result: Pick<ReportResult, 'questions' | 'themes'>): void {
  for (const question of result.questions) {
    const prefix = question.questionIndex === null ? 'qx' : `q${question.questionIndex}`;
    question.themes.forEach((theme, n) => (theme.themeID ||= `${prefix}-t${n + 1}`));
  }
  result.themes.forEach((theme, n) => (theme.themeID ||= `all-t${n + 1}`));
}

/**
 * The codes as the report keeps them: a theme identifier the report has no such theme for (of the
 * answer's own question, or across the interview) is left out, each kept once, in the order of its
 * question's themes, so that every code points at a theme the report shows and the counts add up.
 */
export function tidyCodes<C extends AnswerCode>(result: Pick<ReportResult, 'questions' | 'themes'>, codes: C[]): C[] {
  const order = new Map<string, Map<string, number>>();
  for (const question of result.questions) order.set(rowKey(question.questionIndex), new Map(question.themes.map((t, i) => [t.themeID, i])));
  const across = new Map(result.themes.map((t, i) => [t.themeID, i]));
  const keep = (ids: readonly string[], known: ReadonlyMap<string, number> | undefined) =>
    [...new Set(ids)].filter((id) => known?.has(id)).sort((a, b) => known!.get(a)! - known!.get(b)!);
  return codes.map((code) => {
    const known = order.get(rowKey(code.questionIndex)) ?? order.get('x');
    return { ...code, themeIDs: keep(code.themeIDs, known), acrossThemeIDs: keep(code.acrossThemeIDs, across) };
  });
}

/**
 * A stored result in today's shape. Reports made before answers were coded lack the codes' fields:
 * their themes get their place's identifier, no keyphrases, and `mentions` equal to `answers` (each
 * interviewee's answers counted once: the members of those themes were not kept); `coverage` is null
 * and `other` zero (unknown), and sentiment was VADER's.
 */
export function currentShape(result: StoredResult): StoredResult {
  const legacy = result as Partial<StoredResult> & StoredResult;
  legacy.sentimentMethod ??= 'vader';
  legacy.erased ??= { invites: 0, quotes: 0 };
  // Reports made before recruitment through panels: no such invites existed, no invite was flagged, none had a segment.
  if (legacy.invites) {
    legacy.invites.screenedout ??= 0;
    legacy.invites.overquota ??= 0;
    legacy.invites.flagged ??= 0;
  }
  legacy.segments ??= [];
  const theme = (t: Partial<Theme> & Theme) => {
    t.themeID ??= '';
    t.keyphrases ??= [];
    t.mentions ??= t.answers;
    t.emerging ??= false;
    t.language ??= null;
    t.quotes.forEach(quote);
  };
  // Quotes from before reports could be translated, and the offline analysis' own: no translation.
  const quote = (q: Quote) => {
    q.translation ??= null;
  };
  for (const q of result.questions) {
    const question = q as Partial<QuestionReport> & QuestionReport;
    question.coverage ??= null;
    question.other ??= { answers: 0, mentions: 0 };
    question.themes.forEach(theme);
    question.quotes.forEach(quote);
  }
  result.themes.forEach(theme);
  numberThemes(result);
  return result;
}
