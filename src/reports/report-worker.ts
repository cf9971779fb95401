import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { transaction } from '../database/transaction';
import { WebhookOutbox } from '../webhooks/webhook-outbox.service';
import { AnalystsService } from './analyst/analysts.service';
import { ReportBuilder } from './report-builder';
import { ReportsConfig } from './reports.config';
import { Metrics } from '../metrics/metrics.service';
import { inSpan } from '../common/spans';
import { REPORT_LIMITS } from './reports.limits';
import { ClaimedReport, ReportOutcome, ReportsRepository } from './reports.repository';
import { InvitesRepository } from '../invites/invites.repository';
import { quotedLinks, withoutQuotesOf } from './report-quotes';

/** Why the run stopped on purpose (this instance is stopping, or the claim was taken over): not a failure. */
class RunStopped extends Error {}

/** A run's error, as the report shows it: plain words, never an answer's text or the database's. */
function failureOf(error: unknown): string {
  const name = error instanceof Error ? error.constructor.name : typeof error;
  return `the report could not be made (${name}); the service log has the details`.slice(0, REPORT_LIMITS.error);
}

/**
 * Runs the queued reports, in every instance of the HTTP service (registered in AppModule only), one at
 * a time per instance, never on a request's path. A report is claimed by one instance for a lease that
 * the run renews while it works (with its progress); a run whose instance died is taken over by any
 * instance once the lease runs out, up to REPORT_LIMITS.attempts runs. On shutdown the report being
 * run is handed back, queued again at once for another instance.
 *
 * It looks when a report is queued in this process (wake), and every REPORT_POLL_SECONDS for those
 * queued elsewhere or left by a dead instance.
 */
@Injectable()
export class ReportWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReportWorker.name);
  private stopped = true;
  private draining?: Promise<void>;
  private again = false;
  private current?: { claim: ClaimedReport; stop: AbortController };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reports: ReportsRepository,
    private readonly invites: InvitesRepository,
    private readonly builder: ReportBuilder,
    private readonly analysts: AnalystsService,
    private readonly outbox: WebhookOutbox,
    private readonly config: ReportsConfig,
    private readonly scheduler: SchedulerRegistry,
    metrics: Metrics,
  ) {
    metrics.gauge('irs_reports', 'Reports by status (all instances): queued and running are the queue', ['status'], async (set) => {
      for (const { status, count } of await reports.countByStatus()) set(count, { status });
    });
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.scheduler.addInterval(ReportWorker.name, setInterval(() => this.wake(), this.config.pollMs));
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.current?.stop.abort(new RunStopped('the service is stopping'));
    await this.draining;
  }

  /** Looks for due reports now (again right after, when a look is under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((error: unknown) => {
        // The database away, most likely: the next wake tries again.
        this.logger.warn({ msg: 'report worker cannot claim reports; will try again', error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const now = new Date();
      const claim = await this.reports.claim(randomUUID(), now, new Date(now.getTime() + this.config.leaseMs));
      if (!claim) return;
      await this.run(claim);
    }
  }

  /** One run of a claimed report, to its outcome (or handed back when this instance stops). */
  run(claim: ClaimedReport): Promise<void> {
    // A root span per run (reports never run on a request's path); the analyst's calls and queries are its children.
    return inSpan('report.run', { 'irs.report.analyst': claim.analyst ?? 'builtin', 'irs.report.attempt': claim.attempts }, () => this.runOnce(claim), { root: true });
  }

  private async runOnce(claim: ClaimedReport): Promise<void> {
    if (claim.attempts > REPORT_LIMITS.attempts) {
      await this.finish(claim, { status: 'failed', result: null, error: `its run stopped ${REPORT_LIMITS.attempts} times before it could finish (the instance running it went away)` });
      return;
    }
    const stop = new AbortController();
    this.current = { claim, stop };
    const asOf = new Date();
    let progress = { done: 0, total: 0, asOf };
    const renew = async () => {
      const now = new Date();
      if (!(await this.reports.renew(claim, new Date(now.getTime() + this.config.leaseMs), progress, now))) stop.abort(new RunStopped('the claim was taken over'));
    };
    const heartbeat = setInterval(() => void renew().catch(() => undefined), Math.max(250, Math.floor(this.config.leaseMs / 3)));
    let outcome: ReportOutcome;
    try {
      await renew();
      const { analyst, note } = this.analysts.get(claim.analyst);
      const result = await this.builder.build(claim.interviewID, analyst, asOf, {
        onProgress: (done, total) => (progress = { done, total, asOf }),
        signal: stop.signal,
      });
      if (note) result.notes.unshift(note);
      // The answers' codes never go into the result's JSON: they name every invite read, and belong in a table of
      // their own (report_codes, issue 29) where getCodes pages them and an erasure removes a person's rows.
      const { codes: _codes, ...stored } = result;
      outcome = { status: 'completed', result: JSON.stringify(stored), error: null };
    } catch (error) {
      if (stop.signal.aborted) {
        if (this.stopped) await this.reports.release(claim, new Date()).catch(() => undefined);
        return;
      }
      this.logger.error({ msg: 'report failed', reportID: claim.reportID, error: error instanceof Error ? error.stack : String(error) });
      outcome = { status: 'failed', result: null, error: failureOf(error) };
    } finally {
      clearInterval(heartbeat);
      this.current = undefined;
    }
    await this.finish(claim, outcome);
  }

  /**
   * The outcome, and report.completed to the webhook endpoints that see the interview's product, in one
   * transaction. A run reads its answers long before it stores its result: the quotes of an invite
   * erased meanwhile (whose erasure found no stored result to take them out of) are taken out here.
   * The quoted invites are locked first, in the order an erasure locks invites and then reports.
   */
  private async finish(claim: ClaimedReport, run: ReportOutcome): Promise<void> {
    const now = new Date();
    await transaction(this.dataSource, async (db) => {
      let outcome = run;
      if (outcome.result !== null) {
        const erased = await this.invites.erasedAmong(db, quotedLinks(outcome.result));
        if (erased.size > 0) outcome = { ...outcome, result: withoutQuotesOf(outcome.result, erased) ?? outcome.result };
      }
      if (!(await this.reports.finish(db, claim, outcome, now))) return;
      const event = await this.reports.eventRow(db, claim.reportID);
      if (!event) return;
      const data = { reportID: event.reportID, interviewID: event.interviewID, productID: event.productID, status: event.status };
      await this.outbox.write(db, [{ type: 'report.completed', products: [{ productID: event.productID, ...event.owner }], data: () => data }], now);
    });
    this.logger.log({ msg: 'report finished', reportID: claim.reportID, status: run.status });
  }
}
