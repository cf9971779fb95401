import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, Not, IsNull, type DataSource, type EntityManager } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { KeysetList, SqlWhere } from '../common/keyset';
import { FOR_UPDATE, FOR_UPDATE_SKIP_LOCKED_SQL, affectedRows, rawDate, sqlDate } from '../database/column-types';
import { Invite } from '../invites/invite.entity';
import type { InviteStatus } from '../domain/invite-status';
import { IN_CHUNK } from '../common/limits';
import { Report } from './report.entity';
import { transaction } from '../database/transaction';
import type { ReportStatus } from './reports.limits';

/** A report as the SQL reads it (its product is its interview's): JSON still as text, times as the driver gives them. */
export interface ReportRow {
  reportID: string;
  interviewID: string;
  productID: string;
  analyst: string | null;
  maxThemes: number;
  includeFlagged: boolean | number;
  language: string | null;
  status: ReportStatus;
  progressDone: number;
  progressTotal: number;
  asOf: Date | string | null;
  createdAt: Date | string;
  completedOn: Date | string | null;
  error: string | null;
  result: string | null;
}

/** A report with its product's owners, which decide who may see it. */
export interface OwnedReport {
  report: ReportRow;
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
export interface SharedReportRow {
  reportID: string;
  analyst: string | null;
  createdAt: Date | string;
  completedOn: Date | string;
  asOf: Date | string;
  result: string;
  interviewName: string;
  productName: string;
  expiresOn: Date | string;
}

const COLUMNS =
  'r.id AS reportID, r.interview_id AS interviewID, iv.product_id AS productID, r.analyst AS analyst, r.max_themes AS maxThemes, r.include_flagged AS includeFlagged, r.language AS language, r.status AS status, ' +
  'r.progress_done AS progressDone, r.progress_total AS progressTotal, r.as_of AS asOf, r.created_at AS createdAt, ' +
  'r.completed_on AS completedOn, r.error AS error, r.result AS result';

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

/** A stored result an erasure may edit. */
export interface StoredReportRow {
  reportID: string;
  interviewID: string;
  asOf: Date;
  result: string;
}

/** The reports and report_shares tables: the API's reads, the workers' claims and the share links. */
@Injectable()
export class ReportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(report: { reportID: string; interviewID: string; analyst: string | null; maxThemes: number; language: string | null; includeFlagged: boolean }, now: Date): Promise<void> {
    const at = sqlDate(now);
    await this.dataSource.query(
      "INSERT INTO reports (id, interview_id, analyst, max_themes, language, include_flagged, status, progress_done, progress_total, attempts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, 0, 0, ?, ?)",
      [report.reportID, report.interviewID, report.analyst, report.maxThemes, report.language, report.includeFlagged ? 1 : 0, at, at],
    );
  }

  /** The report with its interview's product's owners. */
  async findOwned(reportID: string): Promise<OwnedReport | undefined> {
    const [row] = await this.dataSource.query<(ReportRow & { ownerOrgID: string | null; ownerUserID: string | null })[]>(
      `SELECT ${COLUMNS}, p.org_id AS ownerOrgID, p.user_id AS ownerUserID FROM reports r ` +
        'INNER JOIN interviews iv ON iv.id = r.interview_id INNER JOIN products p ON p.id = iv.product_id WHERE r.id = ?',
      [reportID],
    );
    if (!row) return undefined;
    const { ownerOrgID, ownerUserID, ...report } = row;
    return { report, owner: { orgID: ownerOrgID, userID: ownerUserID } };
  }

  /** An interview's reports, in the lists' order. */
  list(interviewID: string): KeysetList<ReportRow> {
    return new KeysetList<ReportRow>({
      query: (sql, params) => this.dataSource.query(sql, params),
      columns: COLUMNS,
      from: 'reports r INNER JOIN interviews iv ON iv.id = r.interview_id',
      where: new SqlWhere().and('r.interview_id = ?', interviewID),
      keys: { created: 'r.created_at', id: 'r.id' },
      idOf: (r) => r.reportID,
    });
  }

  /** How many reports are in each status (all instances): the queue, for the metrics. */
  async countByStatus(): Promise<{ status: string; count: number }[]> {
    const rows = await this.dataSource.query<{ status: string; n: number | string }[]>('SELECT status, COUNT(*) AS n FROM reports GROUP BY status');
    return rows.map((r) => ({ status: r.status, count: Number(r.n) }));
  }

  /**
   * The oldest due report, claimed with `token` until `leaseEnds`: a queued one, or a running one whose
   * claim ran out (its instance died). On MySQL instances pass over each other's rows (SKIP LOCKED).
   */
  async claim(token: string, now: Date, leaseEnds: Date): Promise<ClaimedReport | undefined> {
    return transaction(this.dataSource, async (db) => {
      const [due] = await db.query<{ reportID: string; interviewID: string; analyst: string | null; maxThemes: number | string; language: string | null; includeFlagged: boolean | number; attempts: number | string }[]>(
        "SELECT id AS reportID, interview_id AS interviewID, analyst, max_themes AS maxThemes, language, include_flagged AS includeFlagged, attempts FROM reports WHERE status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until <= ?) " +
          `ORDER BY created_at, id LIMIT 1${FOR_UPDATE_SKIP_LOCKED_SQL}`,
        [sqlDate(now)],
      );
      if (!due) return undefined;
      await db.query("UPDATE reports SET status = 'running', claim_token = ?, lease_until = ?, attempts = attempts + 1, updated_at = ? WHERE id = ?", [
        token,
        sqlDate(leaseEnds),
        sqlDate(now),
        due.reportID,
      ]);
      return {
        reportID: due.reportID,
        interviewID: due.interviewID,
        analyst: due.analyst,
        maxThemes: Number(due.maxThemes),
        language: due.language,
        includeFlagged: Boolean(Number(due.includeFlagged)),
        claimToken: token,
        attempts: Number(due.attempts) + 1,
      };
    });
  }

  /** Renews a claim and records the progress; false when the claim no longer holds. */
  async renew(claim: Pick<ClaimedReport, 'reportID' | 'claimToken'>, leaseEnds: Date, progress: { done: number; total: number; asOf?: Date }, now: Date): Promise<boolean> {
    const asOf = progress.asOf ? ', as_of = ?' : '';
    return (
      (await affectedRows(
        this.dataSource.manager,
        `UPDATE reports SET lease_until = ?, progress_done = ?, progress_total = ?${asOf}, updated_at = ? WHERE id = ? AND claim_token = ?`,
        [sqlDate(leaseEnds), progress.done, progress.total, ...(progress.asOf ? [sqlDate(progress.asOf)] : []), sqlDate(now), claim.reportID, claim.claimToken],
      )) > 0
    );
  }

  /** Records the run's outcome while the claim holds, in the caller's transaction; false when it no longer does. */
  async finish(db: EntityManager, claim: Pick<ClaimedReport, 'reportID' | 'claimToken'>, outcome: ReportOutcome, now: Date): Promise<boolean> {
    return (
      (await affectedRows(
        db,
        'UPDATE reports SET status = ?, result = ?, error = ?, completed_on = ?, progress_done = ?, progress_total = ?, claim_token = NULL, lease_until = NULL, ' +
          'updated_at = ? WHERE id = ? AND claim_token = ?',
        [outcome.status, outcome.result, outcome.error, sqlDate(now), ...finalProgress(outcome), sqlDate(now), claim.reportID, claim.claimToken],
      )) > 0
    );
  }

  /** Hands a claimed report back (this instance is stopping): queued again at once, the run not counted. */
  async release(claim: Pick<ClaimedReport, 'reportID' | 'claimToken'>, now: Date): Promise<void> {
    await this.dataSource.query(
      "UPDATE reports SET status = 'queued', claim_token = NULL, lease_until = NULL, attempts = attempts - 1, progress_done = 0, updated_at = ? WHERE id = ? AND claim_token = ?",
      [sqlDate(now), claim.reportID, claim.claimToken],
    );
  }

  /** What report.completed says, and who owns its product (which webhook endpoints may hear of it). */
  async eventRow(db: EntityManager, reportID: string): Promise<{ reportID: string; interviewID: string; productID: string; status: ReportStatus; owner: Owned } | undefined> {
    const [row] = await db.query<{ reportID: string; interviewID: string; productID: string; status: ReportStatus; ownerOrgID: string | null; ownerUserID: string | null }[]>(
      'SELECT r.id AS reportID, r.interview_id AS interviewID, iv.product_id AS productID, r.status AS status, p.org_id AS ownerOrgID, p.user_id AS ownerUserID ' +
        'FROM reports r INNER JOIN interviews iv ON iv.id = r.interview_id INNER JOIN products p ON p.id = iv.product_id WHERE r.id = ?',
      [reportID],
    );
    if (!row) return undefined;
    const { ownerOrgID, ownerUserID, ...event } = row;
    return { ...event, owner: { orgID: ownerOrgID, userID: ownerUserID } };
  }

  async insertShare(share: { shareID: string; reportID: string; expiresOn: Date }, now: Date): Promise<void> {
    await this.dataSource.query('INSERT INTO report_shares (id, report_id, created_at, expires_on) VALUES (?, ?, ?, ?)', [
      share.shareID,
      share.reportID,
      sqlDate(now),
      sqlDate(share.expiresOn),
    ]);
  }

  /** Ends every share link of the report; answers how many there were. */
  async deleteShares(reportID: string): Promise<number> {
    return affectedRows(this.dataSource.manager, 'DELETE FROM report_shares WHERE report_id = ?', [reportID]);
  }

  /** The shared report behind a link that has not expired (its report completed). */
  async findShared(shareID: string, now: Date): Promise<SharedReportRow | undefined> {
    const [row] = await this.dataSource.query<SharedReportRow[]>(
      'SELECT r.id AS reportID, r.analyst AS analyst, r.created_at AS createdAt, r.completed_on AS completedOn, r.as_of AS asOf, r.result AS result, ' +
        'iv.name AS interviewName, p.name AS productName, s.expires_on AS expiresOn FROM report_shares s INNER JOIN reports r ON r.id = s.report_id ' +
        "INNER JOIN interviews iv ON iv.id = r.interview_id INNER JOIN products p ON p.id = iv.product_id WHERE s.id = ? AND s.expires_on > ? AND r.status = 'completed'",
      [shareID, sqlDate(now)],
    );
    return row;
  }

  /**
   * The interview's invites as a report made at `asOf` counts them, erased ones left out (a report
   * counts none of an erased interviewee): those made by then, each in the status it had then (a
   * status reached after asOf counts as the one before: started, or pending), and how long each
   * interview completed by then took. An erasure recounts with the same query.
   */
  async figuresAt(db: EntityManager, interviewID: string, asOf: Date): Promise<InviteFigures> {
    const at = sqlDate(asOf);
    const startedBy = 'i.started_on IS NOT NULL AND i.started_on <= :at';
    const base = () =>
      db.getRepository(Invite).createQueryBuilder('i').where('i.interview_id = :interviewID AND i.created_at <= :at AND i.erased_on IS NULL', { interviewID, at });
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
      .select('i.started_on', 'startedOn')
      .addSelect('i.completed_on', 'completedOn')
      .andWhere("i.status = 'completed' AND i.completed_on <= :at AND i.started_on IS NOT NULL AND i.answer_count > 0")
      .getRawMany<{ startedOn: Date | string; completedOn: Date | string }>();
    figures.durations = completed.map((r) => (rawDate(r.completedOn).getTime() - rawDate(r.startedOn).getTime()) / 1000);
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
      .where('i.interview_id = :interviewID AND i.created_at <= :at AND i.erased_on IS NULL AND i.segment IS NOT NULL', { interviewID, at: sqlDate(asOf) })
      .getRawMany<{ linkID: string; segment: string; completed: number | string }>();
    return rows.map((r) => ({ linkID: r.linkID, segment: r.segment, completed: Number(r.completed) === 1 }));
  }

  /** The interviews' completed reports with their results, locked (MySQL) until the caller's transaction ends: an erasure edits them. */
  async storedResults(db: EntityManager, interviewIDs: readonly string[]): Promise<StoredReportRow[]> {
    const out: StoredReportRow[] = [];
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
