import type { ConfigType } from '@nestjs/config';
import { Injectable, Logger, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { transaction } from '../database/transaction';
import { WebhookOutbox } from '../webhooks/webhook-outbox.service';
import { AnalystsService } from './analyst/analysts.service';
import { ReportBuilder } from './report-builder';
import { reportsConfig } from './reports.config';
import { Metrics } from '../metrics/metrics.service';
import { inSpan } from '../common/spans';
import { REPORT_LIMITS } from './reports.limits';
import { ClaimedReport, ReportsRepository } from './reports.repository';
import { InvitesRepository } from '../invites/invites.repository';
import { Background, BackgroundStopping } from '../common/background';
import type { CodedAnswer, StoredResult } from './report-codes';
import { ReportCodesRepository } from './report-codes.repository';
import { ReportErasure } from './report-erasure';

/** How a run ended: a completed one with its result and codes; either with the run's last progress. */
type RunOutcome = ({ status: 'completed'; result: StoredResult; codes: CodedAnswer[]; error: null } | { status: 'failed'; result: null; codes: []; error: string }) & {
  progress?: { done: number; total: number };
};

/** The invites a result quotes, each once. */
function quotedLinks(result: StoredResult): string[] {
  const links = new Set<string>();
  for (const question of result.questions) {
    for (const q of question.quotes) links.add(q.linkID);
    for (const theme of question.themes) for (const q of theme.quotes) links.add(q.linkID);
  }
  for (const theme of result.themes) for (const q of theme.quotes) links.add(q.linkID);
  return [...links];
}

/** A run's error, as the report shows it: plain words, never an answer's text or the database's. */
function failureOf(error: unknown): string {
  const name = error instanceof Error ? error.constructor.name : typeof error;
  return `the report could not be made (${name}); the service log has the details`.slice(0, REPORT_LIMITS.error);
}

/** The report worker's loop, by name: ReportsService wakes it when it queues a report. */
export const REPORT_WORKER = 'ReportWorker';

/**
 * Runs the queued reports, in every instance of the HTTP service (BackgroundModule), one at a time per
 * instance, never on a request's path. A leased loop of the Background component: a report is claimed
 * by one instance for a lease that the component renews while the run works (with its progress); a run
 * whose instance died is taken over by any instance once the lease runs out, up to
 * REPORT_LIMITS.attempts runs. On shutdown the report being run is handed back, queued again at once
 * for another instance.
 *
 * It looks when a report is queued in this process (ReportsService wakes it), and every
 * REPORT_POLL_SECONDS for those queued elsewhere or left by a dead instance.
 */
@Injectable()
export class ReportWorker {
  private readonly logger = new Logger(REPORT_WORKER);
  /** Each run's last progress, by report: what the next renewal records. */
  private readonly progress = new Map<string, { done: number; total: number; asOf: Date }>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reports: ReportsRepository,
    private readonly codes: ReportCodesRepository,
    private readonly erasure: ReportErasure,
    private readonly invites: InvitesRepository,
    private readonly builder: ReportBuilder,
    private readonly analysts: AnalystsService,
    private readonly outbox: WebhookOutbox,
    @Inject(reportsConfig.KEY) config: ConfigType<typeof reportsConfig>,
    background: Background,
    metrics: Metrics,
  ) {
    metrics.gauge('irs_reports', 'Reports by status (all instances): queued and running are the queue', ['status'], async (set) => {
      for (const { status, count } of await reports.countByStatus()) set(count, { status });
    });
    background.leased<ClaimedReport>({
      name: REPORT_WORKER,
      everyMs: config.pollMs,
      atStart: true,
      leaseMs: config.leaseMs,
      concurrency: 1,
      failing: 'report worker cannot claim reports; will try again',
      claim: async (token, _limit, now, leaseEnds) => {
        const claim = await this.reports.claim(token, now, leaseEnds);
        // The run's data are as of its claim: the first renewal (before the run starts) records it.
        if (claim) this.progress.set(claim.reportID, { done: 0, total: 0, asOf: now });
        return claim ? [claim] : [];
      },
      // A renewal after the run ended (its outcome recorded or handed back) has nothing left to renew.
      renew: async (claim, leaseEnds, now) => {
        const progress = this.progress.get(claim.reportID);
        return progress ? this.reports.renew(claim, leaseEnds, progress, now) : true;
      },
      run: (claim, signal) => this.run(claim, signal).finally(() => this.progress.delete(claim.reportID)),
    });
  }

  /** One run of a claimed report, to its outcome (or handed back when this instance stops). */
  run(claim: ClaimedReport, signal: AbortSignal = new AbortController().signal): Promise<void> {
    // A root span per run (reports never run on a request's path); the analyst's calls and queries are its children.
    return inSpan('report.run', { 'irs.report.analyst': claim.analyst ?? 'builtin', 'irs.report.attempt': claim.attempts }, () => this.runOnce(claim, signal), { root: true });
  }

  private async runOnce(claim: ClaimedReport, signal: AbortSignal): Promise<void> {
    if (claim.attempts > REPORT_LIMITS.attempts) {
      await this.finish(claim, { status: 'failed', result: null, codes: [], error: `its run stopped ${REPORT_LIMITS.attempts} times before it could finish (the instance running it went away)` }, new Date());
      return;
    }
    const asOf = this.progress.get(claim.reportID)?.asOf ?? new Date();
    let progress = { done: 0, total: 0, asOf };
    let outcome: RunOutcome;
    try {
      const { analyst, note } = this.analysts.get(claim.analyst);
      const built = await this.builder.build(claim, analyst, asOf, {
        onProgress: (done, total) => this.progress.set(claim.reportID, (progress = { done, total, asOf })),
        signal,
      });
      if (note) built.result.notes.unshift(note);
      outcome = { status: 'completed', result: built.result, codes: built.codes, error: null, progress };
    } catch (error) {
      if (signal.aborted) {
        // Stopping: queued again at once for another instance. Taken over (LeaseLost): the other run's now.
        if (signal.reason instanceof BackgroundStopping) await this.reports.release(claim, new Date()).catch(() => undefined);
        return;
      }
      this.logger.error({ msg: 'report failed', reportID: claim.reportID, error: error instanceof Error ? error.stack : String(error) });
      outcome = { status: 'failed', result: null, codes: [], error: failureOf(error), progress };
    }
    await this.finish(claim, outcome, asOf);
  }

  /**
   * The outcome (with its codes), and report.completed to the webhook endpoints that see the interview's
   * product, in one transaction. A run reads its answers long before it stores its result: an invite
   * erased meanwhile (whose erasure found no stored result to take it out of) is taken out here, as an
   * erasure would (ReportErasure). The invites the report coded or quotes are locked first, in the order
   * an erasure locks invites and then reports.
   */
  private async finish(claim: ClaimedReport, run: RunOutcome, asOf: Date): Promise<void> {
    const now = new Date();
    await transaction(this.dataSource, async (db) => {
      const json = run.result === null ? null : JSON.stringify(run.result);
      const erased = run.result === null ? new Set<string>() : await this.invites.erasedAmong(db, [...new Set([...run.codes.map((c) => c.linkID), ...quotedLinks(run.result)])]);
      if (!(await this.reports.finish(db, claim, { status: run.status, result: json, error: run.error, progress: run.progress }, now))) return;
      if (run.codes.length > 0) await this.codes.insert(db, claim.reportID, run.codes);
      if (json !== null && erased.size > 0) {
        const invites = [...erased].map((linkID) => ({ linkID, interviewID: claim.interviewID, answers: run.codes.filter((c) => c.linkID === linkID).map((c) => c.answer), name: null }));
        await this.erasure.takeOut(db, { reportID: claim.reportID, interviewID: claim.interviewID, asOf, result: json }, invites, now);
      }
      const event = await this.reports.eventRow(db, claim.reportID);
      if (!event) return;
      const data = { reportID: event.reportID, interviewID: event.interviewID, productID: event.productID, status: event.status };
      await this.outbox.write(db, [{ type: 'report.completed', products: [{ productID: event.productID, ...event.owner }], data: () => data }], now);
    });
    this.logger.log({ msg: 'report finished', reportID: claim.reportID, status: run.status });
  }
}
