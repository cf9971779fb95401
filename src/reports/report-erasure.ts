import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { InviteCounts, Keyphrase, Quote, Theme } from './analysis/analysis.types';
import { median } from './analysis/stats';
import { ErasedWords, wordsOf } from './erased-words';
import type { ReportCode } from './report-code.entity';
import { CodeTally, currentShape, segmentsOf, type StoredResult } from './report-codes';
import { ReportCodesRepository } from './report-codes.repository';
import { ReportsRepository, type InviteFigures, type StoredReport } from './reports.repository';

/** An invite being erased, with what it said (read before its transcript is cleared). */
export interface ErasedInvite {
  linkID: string;
  interviewID: string;
  /** Its interviewee turns. */
  answers: string[];
  /** The person's name as they gave it, when known. */
  name: string | null;
}

/** Put where a model's (or the analysis') text repeated an erased answer and nothing else can stand in. */
export const WITHDRAWN_DESCRIPTION = 'This description was withdrawn: it repeated the words of an interviewee whose data has been erased.';
export const WITHDRAWN_LABEL = 'Label withdrawn';
const WITHDRAWN_NOTE = 'A note was withdrawn: it repeated the words of an interviewee whose data has been erased.';
/** An offline description is an excerpt of at most this many characters. */
const DESCRIPTION_CHARS = 200;

const roundOrNull = (value: number | null) => (value === null ? null : Math.round(value));

/** The invite counts of a report from its figures. */
export function inviteCountsOf(figures: InviteFigures): { invites: InviteCounts; completionRate: number | null } {
  const by = figures.byStatus;
  const invites: InviteCounts = {
    total: Object.values(by).reduce((a, b) => a + (b ?? 0), 0),
    pending: by.pending ?? 0,
    started: by.started ?? 0,
    completed: by.completed ?? 0,
    abandoned: by.abandoned ?? 0,
    expired: by.expired ?? 0,
    revoked: by.revoked ?? 0,
    screenedout: by.screenedout ?? 0,
    overquota: by.overquota ?? 0,
    flagged: figures.flagged,
  };
  return { invites, completionRate: figures.started === 0 ? null : Math.round((invites.completed / figures.started) * 10_000) / 10_000 };
}

/** Up to DESCRIPTION_CHARS of an answer, cut at a word, as an offline description is. */
function excerptOf(answer: string): string {
  const text = answer.replace(/\s+/g, ' ').trim();
  if (text.length <= DESCRIPTION_CHARS) return text;
  let cut = text.slice(0, DESCRIPTION_CHARS - 1);
  if (!cut.isWellFormed()) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(' ');
  return `${(space > DESCRIPTION_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Takes erased interviewees out of stored reports (contract, "Model-written text and erasure"): their
 * answers' codes are deleted, every figure is recounted from the codes left (per question: answered,
 * median words, sentiment, each theme's interviewees and answers, coverage, other; across the
 * interview: the themes, the median answer, the sentiment; and the invite counts, completion rate and
 * median duration from the invites as of the report's asOf), their quotes go, a keyphrase they used
 * counts one interviewee less, and any label, description, keyphrase or note that holds four
 * consecutive words of an erased answer (or a name the person said) is replaced: a description by an
 * excerpt of an answer left in its theme (a verbatim quote first), else a neutral text. Runs in the
 * caller's transaction: participants/erase, the retention sweep, and a report run that finishes after
 * an erasure it could not see.
 *
 * A report made before answers were coded has no codes to recount from: its invite counts, quotes and
 * texts are still brought up to date, its per-question figures are left as they were.
 */
@Injectable()
export class ReportErasure {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly codes: ReportCodesRepository,
  ) {}

  /** Every completed report of the invites' interviews, without them; answers how many were rewritten. */
  async eraseFromReports(db: EntityManager, erased: readonly ErasedInvite[], now: Date): Promise<number> {
    if (erased.length === 0) return 0;
    let rewritten = 0;
    for (const report of await this.reports.storedResults(db, [...new Set(erased.map((e) => e.interviewID))])) {
      if (await this.takeOut(db, report, erased.filter((e) => e.interviewID === report.interviewID), now)) rewritten++;
    }
    return rewritten;
  }

  /** One stored report without the erased invites; false when nothing of theirs was in it (it is not written). */
  async takeOut(db: EntityManager, report: StoredReport, erased: readonly ErasedInvite[], now: Date): Promise<boolean> {
    const links = erased.map((e) => e.linkID);
    const gone = new Set(links);
    const result = currentShape(JSON.parse(report.result) as StoredResult);
    const removed = await this.codes.ofLinks(db, report.reportID, links);
    const coded = removed.length > 0 || (await this.codes.hasCodes(db, report.reportID));
    const words = new ErasedWords([...erased.flatMap((e) => e.answers), ...removed.map((r) => r.answer)], erased.map((e) => e.name ?? ''));

    const quotes = takeOutQuotes(result, gone);
    const figures = await this.reports.figuresAt(db, report.interviewID, report.asOf);
    const { invites, completionRate } = inviteCountsOf(figures);
    const counted = invites.total !== result.invites.total;
    if (removed.length === 0 && quotes === 0 && !counted && !holdsErased(result, words)) return false;

    if (removed.length > 0) {
      await this.codes.deleteLinks(db, report.reportID, links);
      lessKeyphrases(result, removed);
    }
    // Segments are counted again too: an erased invite leaves its segment's counts, and its codes its themes'.
    const segmented = await this.reports.segmentedAt(db, report.interviewID, report.asOf);
    const inSegment = new Set(segmented.map((invite) => invite.linkID));
    const segmentCodes: Pick<ReportCode, 'linkID' | 'themeIDs' | 'acrossThemeIDs'>[] = [];
    if (coded) {
      const tally = new CodeTally(result.questions);
      for await (const page of this.codes.pages(db, report.reportID)) {
        for (const code of page) {
          tally.add(code);
          // What segmentsOf reads, not the answers' text: an erasure may recount a large study.
          if (inSegment.has(code.linkID)) segmentCodes.push({ linkID: code.linkID, themeIDs: code.themeIDs, acrossThemeIDs: code.acrossThemeIDs });
        }
      }
      tally.applyTo(result);
    }
    result.segments = segmentsOf(segmented, segmentCodes);
    await this.scrub(db, report.reportID, result, words);

    // The invites it held: those it counted (as many as its total fell) or coded.
    const held = Math.max(result.invites.total - invites.total, new Set(removed.map((r) => r.linkID)).size);
    result.erased = { invites: result.erased.invites + held, quotes: result.erased.quotes + quotes };
    result.invites = invites;
    result.completionRate = completionRate;
    result.medianDurationSeconds = roundOrNull(median(figures.durations));
    await this.reports.writeResult(db, report.reportID, JSON.stringify(result), now);
    return true;
  }

  /** Replaces every text of the result that holds erased words (quotes are others' verbatim words, and stay). */
  private async scrub(db: EntityManager, reportID: string, result: StoredResult, words: ErasedWords): Promise<void> {
    if (words.empty) return;
    const themes = [...result.questions.flatMap((q) => q.themes), ...result.themes];
    for (const theme of themes) {
      theme.keyphrases = theme.keyphrases.filter((phrase) => !words.in(phrase));
      if (words.in(theme.theme)) theme.theme = theme.keyphrases[0] ?? WITHDRAWN_LABEL;
      if (words.in(theme.description)) theme.description = await this.standIn(db, reportID, theme, words);
    }
    for (const question of result.questions) question.keyphrases = question.keyphrases.filter((k) => !words.in(k.phrase));
    result.notes = result.notes.map((note) => (words.in(note) ? WITHDRAWN_NOTE : note));
  }

  /** What stands in for a theme's description: a quote of it, else an excerpt of an answer left in it, else a neutral text. */
  private async standIn(db: EntityManager, reportID: string, theme: Theme, words: ErasedWords): Promise<string> {
    const quote = theme.quotes.find((q) => !words.in(q.text) && q.text.length <= DESCRIPTION_CHARS);
    if (quote) return quote.text;
    if (!theme.themeID.startsWith('all-')) {
      for (const code of (await this.codes.list(reportID, { themeID: theme.themeID }, db).page(20)).rows) {
        const text = excerptOf(code.answer);
        if (text && !words.in(text)) return text;
      }
    }
    return WITHDRAWN_DESCRIPTION;
  }
}

/** Takes the quotes of the erased invites out of every quote list of the result; answers how many. */
export function takeOutQuotes(result: StoredResult, gone: ReadonlySet<string>): number {
  let removed = 0;
  const keep = (quotes: Quote[]) => {
    const kept = quotes.filter((q) => !gone.has(q.linkID));
    removed += quotes.length - kept.length;
    return kept;
  };
  for (const question of result.questions) {
    question.quotes = keep(question.quotes);
    for (const theme of question.themes) theme.quotes = keep(theme.quotes);
  }
  for (const theme of result.themes) theme.quotes = keep(theme.quotes);
  return removed;
}

/** Whether any text of the result holds erased words. */
function holdsErased(result: StoredResult, words: ErasedWords): boolean {
  if (words.empty) return false;
  const themes = [...result.questions.flatMap((q) => q.themes), ...result.themes];
  return (
    themes.some((t) => words.in(t.theme) || words.in(t.description) || t.keyphrases.some((k) => words.in(k))) ||
    result.questions.some((q) => q.keyphrases.some((k) => words.in(k.phrase))) ||
    result.notes.some((n) => words.in(n))
  );
}

/**
 * A keyphrase counts the interviewees whose answers to its question use it: one less for each erased
 * invite whose answers there held its words in order (as the answer reads; the analysis stems words,
 * so a phrase it matched in another form may stay counted). A keyphrase no one is left using goes.
 */
function lessKeyphrases(result: StoredResult, removed: readonly ReportCode[]): void {
  for (const question of result.questions) {
    const answers = removed.filter((r) => r.questionIndex === question.questionIndex || (question.questionIndex === null && !result.questions.some((q) => q.questionIndex === r.questionIndex)));
    if (answers.length === 0) continue;
    const byLink = new Map<string, string>();
    for (const r of answers) byLink.set(r.linkID, `${byLink.get(r.linkID) ?? ''} ${wordsOf(r.answer).join(' ')} `);
    question.keyphrases = question.keyphrases
      .map((k): Keyphrase => {
        const phrase = ` ${wordsOf(k.phrase).join(' ')} `;
        let users = 0;
        for (const text of byLink.values()) if (text.includes(phrase)) users++;
        return { ...k, answers: Math.max(0, k.answers - users) };
      })
      .filter((k) => k.answers > 0);
  }
}
