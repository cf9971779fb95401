import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, In, Not, IsNull, type DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Owned } from '../access/access-rule';
import { KeysetList } from '../common/keyset';
import { FOR_UPDATE, forUpdate } from '../database/column-types';
import type { Interview } from '../interviews/interview.entity';
import { Invite } from '../invites/invite.entity';
import type { InviteStatus } from '../domain/invite-status';
import { IN_CHUNK } from '../common/limits';
import type { Product } from '../products/product.entity';
import { Report, ReportShare } from './report.entity';
import { transaction } from '../database/transaction';
import type { ReportStatus } from './reports.limits';

/** A report with its interview's product (the interview's `productID` is read with it). */
export type ReportWithProduct = Report & { interview: Pick<Interview, 'interviewID' | 'productID'> };

/** A report with its product's owners, which decide who may see it. */
export interface OwnedReport {
  report: ReportWithProduct;
  owner: Owned;
}

/** A report a worker has claimed: what it needs to run it. */
export interface ClaimedReport {
  reportID: string;
  interviewID: string;
  analyst: string | null;
  maxThemes: number;
  /** The language a model writes the report in; null: English. */
  language: string | null;
  includeFlagged: boolean;
  claimToken: string;
  /** Runs started, this one included. */
  attempts: number;
}

/** What a finished run writes. */
export interface ReportOutcome {
  status: 'completed' | 'failed';
  result: string | null;
  error: string | null;
  /**
   * The run's last progress: a report that finished between two renewals would otherwise keep the
   * counts of its last renewal (0 of 0 for a run shorter than one). A completed run has done it all.
   */
  progress?: { done: number; total: number };
}

/** What a shared page shows: the report, its interview's and product's names, and the link's end. */
export type SharedReport = ReportShare & {
  report: Report & { completedOn: Date; asOf: Date; result: string; interview: Pick<Interview, 'interviewID' | 'interviewName'> & { product: Pick<Product, 'productID' | 'name'> } };
};

/** What a report counts of its interview's invites as of its asOf: their status then, and durations. */
export interface InviteFigures {
  byStatus: Partial<Record<InviteStatus, number>>;
  /** Invites started by then (whatever their status now). */
  started: number;
  /** Start to completion of the invites completed by then, in seconds. */
  durations: number[];
  /** Invites counted whose quality is flagged. */
  flagged: number;
}

/** A stored result an erasure may edit: a completed report's, so its asOf and result are set. */
export type StoredReport = Pick<Report, 'reportID' | 'interviewID'> & { asOf: Date; result: string };

/** The reports and report_shares tables: the API's reads, the workers' claims and the share links. */
@Injectable()
export class ReportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(report: { reportID: string; interviewID: string; analyst: string | null; maxThemes: number; language: string | null; includeFlagged: boolean }, now: Date): Promise<void> {
    await this.dataSource.getRepository(Report).insert({ ...report, status: 'queued', progressDone: 0, progressTotal: 0, attempts: 0, createdAt: now, updatedAt: now });
  }

  /** Reports with their interview's product (and, with `owners`, the product's owners). */
  private withProduct(db: EntityManager, owners = false): SelectQueryBuilder<Report> {
    const query = db.getRepository(Report).createQueryBuilder('r').innerJoin('r.interview', 'iv').addSelect(['iv.interviewID', 'iv.productID']);
    return owners ? query.innerJoin('iv.product', 'p').addSelect(['p.productID', 'p.orgID', 'p.userID']) : query;
  }

  /** The report with its interview's product's owners. */
  async findOwned(reportID: string): Promise<OwnedReport | undefined> {
    const report = await this.withProduct(this.dataSource.manager, true).where('r.reportID = :reportID', { reportID }).getOne();
    if (!report) return undefined;
    const { product, ...interview } = report.interview as Interview & { product: Product };
    return { report: Object.assign(report, { interview }), owner: { orgID: product.orgID, userID: product.userID } };
  }

  /** An interview's reports, in the lists' order. */
  list(interviewID: string): KeysetList<ReportWithProduct, Report> {
    return new KeysetList<ReportWithProduct, Report>({
      query: () => this.withProduct(this.dataSource.manager).where('r.interviewID = :interviewID', { interviewID }),
      keys: { created: 'r.createdAt', id: 'r.reportID' },
      keyOf: (r) => ({ createdAt: r.createdAt, id: r.reportID }),
      read: (query) => query.getMany() as Promise<ReportWithProduct[]>,
    });
  }

  /** How many reports are in each status (all instances): the queue, for the metrics. */
  async countByStatus(): Promise<{ status: string; count: number }[]> {
    const rows = await this.dataSource
      .getRepository(Report)
      .createQueryBuilder('r')
      .select('r.status', 'status')
      .addSelect('COUNT(*)', 'n')
      .groupBy('r.status')
      .getRawMany<{ status: string; n: number | string }>();
    // COUNT(*) comes back as a number from SQLite and as a string (a BIGINT) from mysql2.
    return rows.map((r) => ({ status: r.status, count: Number(r.n) }));
  }

  /**
   * The oldest due report, claimed with `token` until `leaseEnds`: a queued one, or a running one whose
   * claim ran out (its instance died). On MySQL instances pass over each other's rows (SKIP LOCKED).
   */
  async claim(token: string, now: Date, leaseEnds: Date): Promise<ClaimedReport | undefined> {
    return transaction(this.dataSource, async (db) => {
      const due = await forUpdate(
        db
          .getRepository(Report)
          .createQueryBuilder('r')
          .select(['r.reportID', 'r.interviewID', 'r.analyst', 'r.maxThemes', 'r.language', 'r.includeFlagged', 'r.attempts'])
          .where("r.status IN ('queued', 'running')")
          .andWhere(new Brackets((lease) => lease.where('r.leaseUntil IS NULL').orWhere('r.leaseUntil <= :now', { now })))
          .orderBy('r.createdAt', 'ASC')
          .addOrderBy('r.reportID', 'ASC')
          .limit(1),
        { skipLocked: true },
      ).getOne();
      if (!due) return undefined;
      await db.getRepository(Report).update({ reportID: due.reportID }, { status: 'running', claimToken: token, leaseUntil: leaseEnds, attempts: () => 'attempts + 1', updatedAt: now });
      const { reportID, interviewID, analyst, maxThemes, language, includeFlagged } = due;
      return { reportID, interviewID, analyst, maxThemes, language, includeFlagged, claimToken: token, attempts: due.attempts + 1 };
    });
  }

  /** Renews a claim and records the progress; false when the claim no longer holds. */
  async renew(claim: Pick<ClaimedReport, 'reportID' | 'claimToken'>, leaseEnds: Date, progress: { done: number; total: number; asOf?: Date }, now: Date): Promise<boolean> {
    const changes: QueryDeepPartialEntity<Report> = { leaseUntil: leaseEnds, progressDone: progress.done, progressTotal: progress.total, updatedAt: now };
    if (progress.asOf) changes.asOf = progress.asOf;
    return ((await this.dataSource.getRepository(Report).update({ reportID: claim.reportID, claimToken: claim.claimToken }, changes)).affected ?? 0) > 0;
  }

  /** Records the run's outcome while the claim holds, in the caller's transaction; false when it no longer does. */
  async finish(db: EntityManager, claim: Pick<ClaimedReport, 'reportID' | 'claimToken'>, outcome: ReportOutcome, now: Date): Promise<boolean> {
    const [progressDone, progressTotal] = finalProgress(outcome);
    const changes = { status: outcome.status, result: outcome.result, error: outcome.error, completedOn: now, progressDone, progressTotal, claimToken: null, leaseUntil: null, updatedAt: now };
    return ((await db.getRepository(Report).update({ reportID: claim.reportID, claimToken: claim.claimToken }, changes)).affected ?? 0) > 0;
  }

  /** Hands a claimed report back (this instance is stopping): queued again at once, the run not counted. */
  async release(claim: Pick<ClaimedReport, 'reportID' | 'claimToken'>, now: Date): Promise<void> {
    await this.dataSource
      .getRepository(Report)
      .update({ reportID: claim.reportID, claimToken: claim.claimToken }, { status: 'queued', claimToken: null, leaseUntil: null, attempts: () => 'attempts - 1', progressDone: 0, updatedAt: now });
  }

  /** What report.completed says, and who owns its product (which webhook endpoints may hear of it). */
  async eventRow(db: EntityManager, reportID: string): Promise<{ reportID: string; interviewID: string; productID: string; status: ReportStatus; owner: Owned } | undefined> {
    const report = await this.withProduct(db, true).select(['r.reportID', 'r.interviewID', 'r.status', 'iv.interviewID', 'iv.productID', 'p.productID', 'p.orgID', 'p.userID']).where('r.reportID = :reportID', { reportID }).getOne();
    if (!report) return undefined;
    const { productID, product } = report.interview as Interview & { product: Product };
    return { reportID: report.reportID, interviewID: report.interviewID, productID, status: report.status, owner: { orgID: product.orgID, userID: product.userID } };
  }

  async insertShare(share: { shareID: string; reportID: string; expiresOn: Date }, now: Date): Promise<void> {
    await this.dataSource.getRepository(ReportShare).insert({ ...share, createdAt: now });
  }

  /** Ends every share link of the report; answers how many there were. */
  async deleteShares(reportID: string): Promise<number> {
    return (await this.dataSource.getRepository(ReportShare).delete({ reportID })).affected ?? 0;
  }

  /** The shared report behind a link that has not expired (its report completed). */
  async findShared(shareID: string, now: Date): Promise<SharedReport | undefined> {
    const share = await this.dataSource
      .getRepository(ReportShare)
      .createQueryBuilder('s')
      .innerJoin('s.report', 'r')
      .innerJoin('r.interview', 'iv')
      .innerJoin('iv.product', 'p')
      .select(['s.shareID', 's.reportID', 's.expiresOn', 'r.reportID', 'r.analyst', 'r.createdAt', 'r.completedOn', 'r.asOf', 'r.result', 'iv.interviewID', 'iv.interviewName', 'p.productID', 'p.name'])
      .where("s.shareID = :shareID AND s.expiresOn > :now AND r.status = 'completed'", { shareID, now })
      .getOne();
    return (share as SharedReport | null) ?? undefined;
  }

  /**
   * The interview's invites as a report made at `asOf` counts them, erased ones left out (a report
   * counts none of an erased interviewee): those made by then, each in the status it had then (a
   * status reached after asOf counts as the one before: started, or pending), and how long each
   * interview completed by then took. An erasure recounts with the same query.
   */
  async figuresAt(db: EntityManager, interviewID: string, asOf: Date): Promise<InviteFigures> {
    const startedBy = 'i.started_on IS NOT NULL AND i.started_on <= :at';
    const base = () =>
      db.getRepository(Invite).createQueryBuilder('i').where('i.interview_id = :interviewID AND i.created_at <= :at AND i.erased_on IS NULL', { interviewID, at: asOf });
    const rows = await base()
      .select(
        "CASE WHEN i.status = 'completed' AND i.completed_on <= :at THEN 'completed' " +
          "WHEN i.status IN ('abandoned', 'expired', 'revoked', 'screenedout', 'overquota') AND i.updated_at <= :at THEN i.status " +
          `WHEN ${startedBy} THEN 'started' ELSE 'pending' END`,
        'status_then',
      )
      .addSelect('COUNT(*)', 'n')
      .addSelect(`SUM(CASE WHEN ${startedBy} THEN 1 ELSE 0 END)`, 'started')
      .addSelect('SUM(CASE WHEN i.flagged = 1 THEN 1 ELSE 0 END)', 'flagged')
      // By the alias: MySQL resolves a bare name in GROUP BY to the table's column first.
      .groupBy('status_then')
      .getRawMany<{ status_then: InviteStatus; n: number | string; started: number | string | null; flagged: number | string | null }>();
    const figures: InviteFigures = { byStatus: {}, started: 0, durations: [], flagged: 0 };
    for (const row of rows) {
      figures.byStatus[row.status_then] = Number(row.n);
      figures.started += Number(row.started ?? 0);
      figures.flagged += Number(row.flagged ?? 0);
    }
    const completed = await base()
      .select(['i.linkID', 'i.startedOn', 'i.completedOn'])
      .andWhere("i.status = 'completed' AND i.completed_on <= :at AND i.started_on IS NOT NULL AND i.answer_count > 0")
      .getMany();
    figures.durations = completed.map((i) => (i.completedOn!.getTime() - i.startedOn!.getTime()) / 1000);
    return figures;
  }

  /** The interview's invites that have a segment, as a report made at `asOf` counts them (erased ones left out). */
  async segmentedAt(db: EntityManager, interviewID: string, asOf: Date): Promise<{ linkID: string; segment: string; completed: boolean }[]> {
    const rows = await db
      .getRepository(Invite)
      .createQueryBuilder('i')
      .select('i.link_id', 'linkID')
      .addSelect('i.segment', 'segment')
      .addSelect("CASE WHEN i.status = 'completed' AND i.completed_on <= :at THEN 1 ELSE 0 END", 'completed')
      .where('i.interview_id = :interviewID AND i.created_at <= :at AND i.erased_on IS NULL AND i.segment IS NOT NULL', { interviewID, at: asOf })
      .getRawMany<{ linkID: string; segment: string; completed: number | string }>();
    return rows.map((r) => ({ linkID: r.linkID, segment: r.segment, completed: Number(r.completed) === 1 }));
  }

  /** The interviews' completed reports with their results, locked (MySQL) until the caller's transaction ends: an erasure edits them. */
  async storedResults(db: EntityManager, interviewIDs: readonly string[]): Promise<StoredReport[]> {
    const out: StoredReport[] = [];
    for (let i = 0; i < interviewIDs.length; i += IN_CHUNK) {
      const reports = await db.getRepository(Report).find({
        select: { reportID: true, interviewID: true, asOf: true, result: true },
        where: { interviewID: In(interviewIDs.slice(i, i + IN_CHUNK)), result: Not(IsNull()) },
        order: { reportID: 'ASC' },
        ...FOR_UPDATE,
      });
      for (const r of reports) out.push({ reportID: r.reportID, interviewID: r.interviewID, asOf: r.asOf ?? new Date(0), result: r.result! });
    }
    return out;
  }

  async writeResult(db: EntityManager, reportID: string, result: string, now: Date): Promise<void> {
    await db.getRepository(Report).update({ reportID }, { result, updatedAt: now });
  }
}

/** The counts a finished report keeps: a completed run did all it counted; a failed one what it got to. */
function finalProgress(outcome: ReportOutcome): [number, number] {
  const { done, total } = outcome.progress ?? { done: 0, total: 0 };
  return outcome.status === 'completed' ? [total, total] : [Math.min(done, total), total];
}
