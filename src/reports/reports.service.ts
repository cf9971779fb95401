import type { ConfigType } from '@nestjs/config';
import { Injectable, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { newUrlSecret, uuidv7 } from '../common/ids';
import { ListAnswer, answerList } from '../common/keyset';
import { CodebooksService } from '../codebooks/codebooks.service';
import { CODEBOOK_LIMITS } from '../codebooks/codebook.limits';
import type { CodebookDto } from '../codebooks/dto/codebook.dto';
import { InterviewsService } from '../interviews/interviews.service';
import type { CodebookQuestion } from '../codebooks/codebook.types';
import { AnalystsService } from './analyst/analysts.service';
import { CodeRowDto, ReportDto, ReportShareDto, ReportUnsharedDto } from './dto/report.dto';
import { CreateReportDto, GetCodesQueryDto, ListReportsQueryDto, ShareReportDto } from './dto/report-input.dto';
import type { ReportCode } from './report-code.entity';
import { currentShape, type StoredResult } from './report-codes';
import { ReportCodesRepository } from './report-codes.repository';
import { Background } from '../common/background';
import { REPORT_WORKER } from './report-worker';
import { reportsConfig } from './reports.config';
import { ReportNotCompletedException, ReportNotFoundException } from './reports.errors';
import { REPORT_LIMITS } from './reports.limits';
import { OwnedReport, ReportsRepository, type ReportWithProduct, type SharedReport } from './reports.repository';
import type { SharedReportView } from './share/report-page';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A shared page lists at most this many answers under a theme (and says how many more there are). */
export const SHARED_ANSWERS_PER_THEME = 50;

/** The themes with the first of each label (compared without regard to case), as a codebook must hold them. */
function uniqueLabels<T extends { theme: string }>(themes: readonly T[]): T[] {
  const seen = new Set<string>();
  return themes.filter((t) => {
    const key = clipped(t.theme, CODEBOOK_LIMITS.theme).trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A report as the API shows it. */
export function reportDtoOf(r: ReportWithProduct): ReportDto {
  return {
    reportID: r.reportID,
    interviewID: r.interviewID,
    productID: r.interview.productID,
    analyst: r.analyst,
    maxThemes: r.maxThemes,
    includeFlagged: r.includeFlagged,
    language: r.language,
    status: r.status,
    progress: { done: r.progressDone, total: r.progressTotal },
    asOf: r.asOf?.toISOString() ?? null,
    created_on: r.createdAt.toISOString(),
    completed_on: r.completedOn?.toISOString() ?? null,
    error: r.error,
    result: r.result === null ? null : currentShape(JSON.parse(r.result) as StoredResult),
  };
}

/** A code as getCodes lists it. */
function codeRowOf(c: ReportCode): CodeRowDto {
  return { linkID: c.linkID, questionIndex: c.questionIndex, turnIndex: c.turnIndex, themeIDs: c.themeIDs, answer: c.answer };
}

/** At most `max` characters (never inside a surrogate pair). */
function clipped(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  if (!cut.isWellFormed()) cut = cut.slice(0, -1);
  return cut;
}

function sharedOf(share: SharedReport): Omit<SharedReportView, 'answersOf'> {
  const { report } = share;
  return {
    productName: report.interview.product.name,
    interviewName: report.interview.interviewName,
    analyst: report.analyst,
    createdOn: report.createdAt,
    completedOn: report.completedOn,
    asOf: report.asOf,
    expiresOn: share.expiresOn,
    result: currentShape(JSON.parse(report.result) as StoredResult),
  };
}

/** Reports through the API (queued here, made by ReportWorker), and the share links to their pages. */
@Injectable()
export class ReportsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reports: ReportsRepository,
    private readonly codes: ReportCodesRepository,
    private readonly codebooks: CodebooksService,
    private readonly interviews: InterviewsService,
    private readonly access: AccessService,
    private readonly analysts: AnalystsService,
    private readonly background: Background,
    @Inject(reportsConfig.KEY) private readonly config: ConfigType<typeof reportsConfig>,
  ) {}

  /** Queues a report on a visible interview; the worker of this instance looks at once. */
  async create(dto: CreateReportDto, principal: Principal): Promise<{ reportID: string }> {
    const { interview } = await this.interviews.requireVisible(principal, dto.interviewID);
    const analyst = dto.analyst ?? null;
    this.analysts.assertKnown(analyst);
    const reportID = uuidv7();
    await this.reports.insert(
      { reportID, interviewID: interview.interviewID, analyst, maxThemes: dto.maxThemes ?? REPORT_LIMITS.maxThemes.default, language: dto.language ?? null, includeFlagged: dto.includeFlagged ?? false },
      new Date(),
    );
    this.background.wake(REPORT_WORKER);
    return { reportID };
  }

  /** The report when the caller may see its interview, else its 404. */
  private async requireVisible(principal: Principal, reportID: string): Promise<OwnedReport> {
    return this.access.visible(principal, await this.reports.findOwned(reportID), (r) => r.owner, () => new ReportNotFoundException(reportID));
  }

  async getOne(reportID: string, principal: Principal): Promise<ReportDto> {
    return reportDtoOf((await this.requireVisible(principal, reportID)).report);
  }

  async list(query: ListReportsQueryDto, principal: Principal): Promise<ListAnswer<ReportDto>> {
    await this.interviews.requireVisible(principal, query.interviewID);
    return answerList(query, this.reports.list(query.interviewID), (rows) => rows.map(reportDtoOf));
  }

  /** The codes of a completed report, in getAnswers' order, paged like every list. */
  async getCodes(query: GetCodesQueryDto, principal: Principal): Promise<ListAnswer<CodeRowDto>> {
    const { report } = await this.requireVisible(principal, query.reportID);
    if (report.status !== 'completed') throw new ReportNotCompletedException(report.status, 'has codes');
    return answerList(query, this.codes.list(report.reportID, { questionIndex: query.questionIndex, themeID: query.themeID }), (rows) => rows.map(codeRowOf));
  }

  /**
   * A completed report's themes of each question, stored as its interview's codebook (label,
   * description, up to 5 quotes as examples), and returned. A question the interview no longer asks is
   * left out, and so is the row of unattributed answers (a codebook is per question).
   */
  async toCodebook(reportID: string, principal: Principal): Promise<CodebookDto> {
    const { report } = await this.requireVisible(principal, reportID);
    if (report.status !== 'completed' || report.result === null) throw new ReportNotCompletedException(report.status, 'can become a codebook');
    const result = currentShape(JSON.parse(report.result) as StoredResult);
    const { questions } = await this.interviews.questionsOf(report.interviewID);
    const asked = new Set(questions.map((q) => q.questionIndex));
    const codebook: CodebookQuestion[] = result.questions
      .filter((q) => q.questionIndex !== null && asked.has(q.questionIndex) && q.themes.length > 0)
      .map((q) => ({
        questionIndex: q.questionIndex!,
        themes: uniqueLabels(q.themes)
          .slice(0, CODEBOOK_LIMITS.themes)
          .map((t) => ({
            theme: clipped(t.theme, CODEBOOK_LIMITS.theme),
            description: t.description.trim() ? clipped(t.description, CODEBOOK_LIMITS.description) : null,
            examples: [...new Set(t.quotes.map((quote) => clipped(quote.text, CODEBOOK_LIMITS.example)))].slice(0, CODEBOOK_LIMITS.examplesFromReport),
          })),
      }));
    await this.codebooks.replace(report.interviewID, codebook);
    return { interviewID: report.interviewID, questions: codebook };
  }

  /**
   * For a coded export: a lookup of the answers' theme labels in a completed report of the interview
   * (labels of the answer's own question's themes; [] for other; null for an answer the report did
   * not read). Another interview's report is this one's 404.
   */
  async themesFor(reportID: string, interviewID: string, principal: Principal): Promise<(rows: readonly { linkID: string; turnIndex: number }[]) => Promise<(string[] | null)[]>> {
    const { report } = await this.requireVisible(principal, reportID);
    if (report.interviewID !== interviewID) throw new ReportNotFoundException(reportID);
    if (report.status !== 'completed' || report.result === null) throw new ReportNotCompletedException(report.status, 'has codes');
    const result = currentShape(JSON.parse(report.result) as StoredResult);
    const labels = new Map(result.questions.flatMap((q) => q.themes.map((t) => [t.themeID, t.theme] as const)));
    return async (rows) => {
      const codes = await this.codes.ofLinks(this.dataSource.manager, report.reportID, [...new Set(rows.map((r) => r.linkID))]);
      const byTurn = new Map(codes.map((c) => [`${c.linkID}#${c.turnIndex}`, c.themeIDs]));
      return rows.map((r) => byTurn.get(`${r.linkID}#${r.turnIndex}`)?.map((id) => labels.get(id) ?? id) ?? null);
    };
  }

  /** A new secret link to a completed report's page. */
  async share(dto: ShareReportDto, principal: Principal): Promise<ReportShareDto> {
    const { report } = await this.requireVisible(principal, dto.reportID);
    if (report.status !== 'completed') throw new ReportNotCompletedException(report.status);
    const now = new Date();
    const expiresOn = new Date(now.getTime() + (dto.expiresInDays ?? REPORT_LIMITS.shareDays.default) * DAY_MS);
    const shareID = newUrlSecret();
    await this.reports.insertShare({ shareID, reportID: report.reportID, expiresOn }, now);
    return { url: `${this.config.shareBaseUrl}/${shareID}`, expires_on: expiresOn.toISOString() };
  }

  /** Ends every share link of the report. */
  async unshare(reportID: string, principal: Principal): Promise<ReportUnsharedDto> {
    const { report } = await this.requireVisible(principal, reportID);
    return { reportID: report.reportID, status: 'unshared', links: await this.reports.deleteShares(report.reportID) };
  }

  /**
   * The report behind a share link, while it works; undefined for an unknown or expired link. The page
   * shows under each theme of a question its first answers (SHARED_ANSWERS_PER_THEME).
   */
  async shared(shareID: string): Promise<SharedReportView | undefined> {
    const row = await this.reports.findShared(shareID, new Date());
    if (!row) return undefined;
    const view = sharedOf(row);
    const themeIDs = view.result.questions.flatMap((q) => q.themes.map((t) => t.themeID));
    const answers = await this.codes.firstOfThemes(row.reportID, themeIDs, SHARED_ANSWERS_PER_THEME);
    return { ...view, answersOf: (themeID) => (answers.get(themeID) ?? []).map((c) => c.answer) };
  }
}
