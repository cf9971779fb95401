import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { newUrlSecret, uuidv7 } from '../common/ids';
import { ListAnswer, answerList } from '../common/keyset';
import { rawDate } from '../database/column-types';
import { InterviewsService } from '../interviews/interviews.service';
import type { ReportResult } from './analysis/analysis.types';
import { AnalystsService } from './analyst/analysts.service';
import { ReportDto, ReportShareDto, ReportUnsharedDto } from './dto/report.dto';
import { CreateReportDto, ListReportsQueryDto, ShareReportDto } from './dto/report-input.dto';
import { ReportWorker } from './report-worker';
import { ReportsConfig } from './reports.config';
import { ReportNotCompletedException, ReportNotFoundException } from './reports.errors';
import { REPORT_LIMITS } from './reports.limits';
import { OwnedReport, ReportRow, ReportsRepository, SharedReportRow } from './reports.repository';
import type { SharedReportView } from './share/report-page';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A report as the API shows it. */
export function reportDtoOf(r: ReportRow): ReportDto {
  return {
    reportID: r.reportID,
    interviewID: r.interviewID,
    productID: r.productID,
    analyst: r.analyst,
    status: r.status,
    progress: { done: Number(r.progressDone), total: Number(r.progressTotal) },
    asOf: r.asOf === null ? null : rawDate(r.asOf).toISOString(),
    created_on: rawDate(r.createdAt).toISOString(),
    completed_on: r.completedOn === null ? null : rawDate(r.completedOn).toISOString(),
    error: r.error,
    result: r.result === null ? null : (JSON.parse(r.result) as ReportResult),
  };
}

function sharedOf(r: SharedReportRow): SharedReportView {
  return {
    productName: r.productName,
    interviewName: r.interviewName,
    analyst: r.analyst,
    createdOn: rawDate(r.createdAt),
    completedOn: rawDate(r.completedOn),
    asOf: rawDate(r.asOf),
    expiresOn: rawDate(r.expiresOn),
    result: JSON.parse(r.result) as ReportResult,
  };
}

/** Reports through the API (queued here, made by ReportWorker), and the share links to their pages. */
@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly interviews: InterviewsService,
    private readonly access: AccessService,
    private readonly analysts: AnalystsService,
    private readonly worker: ReportWorker,
    private readonly config: ReportsConfig,
  ) {}

  /** Queues a report on a visible interview; the worker of this instance looks at once. */
  async create(dto: CreateReportDto, principal: Principal): Promise<{ reportID: string }> {
    const { interview } = await this.interviews.requireVisible(principal, dto.interviewID);
    const analyst = dto.analyst ?? null;
    this.analysts.assertKnown(analyst);
    const reportID = uuidv7();
    await this.reports.insert({ reportID, interviewID: interview.interviewID, analyst }, new Date());
    this.worker.wake();
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

  /** The report behind a share link, while it works; undefined for an unknown or expired link. */
  async shared(shareID: string): Promise<SharedReportView | undefined> {
    const row = await this.reports.findShared(shareID, new Date());
    return row && sharedOf(row);
  }
}
