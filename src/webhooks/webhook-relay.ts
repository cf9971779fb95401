import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { FOR_UPDATE_SKIP_LOCKED_SQL, affectedRows, sqlDate } from '../database/column-types';
import { retryDelayMs } from './retry-schedule';
import { SendOutcome, sendWebhook } from './webhook-sender';
import { signedHeaders } from './webhook-signing';
import { WebhookOutbox } from './webhook-outbox.service';
import { RELAY } from './webhooks.limits';
import { CLAIMED_DELIVERIES, ClaimedRow, DUE_DELIVERIES } from './webhooks.sql';

const GONE_REASON = 'the endpoint answered 410 Gone';
const RETRY_TIMER_HORIZON_MS = 60_000;

/**
 * Sends the outbox's deliveries. Runs in every instance of the HTTP service (registered in AppModule
 * only, not in the seed's context), beside request handling and never in its way: every send is
 * asynchronous I/O, every database step a short transaction of its own.
 *
 * A delivery is claimed by one instance at a time: a transaction takes due rows (FOR UPDATE SKIP LOCKED
 * on MySQL/MariaDB, so instances pass over each other's; the embedded database has one process), marks
 * them with a claim token and moves their due time a lease ahead. The result is recorded only while the
 * claim still holds; the claim of an instance that died is due again when its lease ends.
 *
 * It wakes when this process commits new deliveries, when a retry it scheduled falls due, and every
 * couple of seconds for deliveries written or scheduled by other instances.
 */
@Injectable()
export class WebhookRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookRelay.name);
  /** The sends under way, by claim (a delivery and the token it was claimed with). */
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private stopped = true;
  private pumping?: Promise<void>;
  private again = false;
  private poller?: NodeJS.Timeout;
  /** When retries this instance scheduled fall due, earliest first, and the timer for the first. */
  private readonly retriesDue: number[] = [];
  private retryTimer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private failing = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: WebhookOutbox,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.webhooks.allowLocal) {
      this.logger.warn({
        msg: 'WEBHOOK_ALLOW_LOCAL is on: webhooks may be sent over http and to loopback, private and link-local addresses. For development and tests only; never in production.',
      });
    }
    this.stopped = false;
    this.unsubscribe = this.outbox.onWritten(() => this.wake());
    this.poller = setInterval(() => this.wake(), RELAY.pollMs);
    this.poller.unref();
    this.wake();
  }

  /** Stops claiming, and hands back what is being sent: those deliveries are due again at once, for any instance. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.poller);
    clearTimeout(this.retryTimer);
    await this.pumping;
    const sending = [...this.inFlight.values()];
    for (const s of sending) s.abort.abort();
    await Promise.all(sending.map((s) => s.done));
  }

  /** Looks for due deliveries now (again right after, when a look is already under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .then(
        () => {
          if (this.failing) this.logger.log({ msg: 'webhook relay is working again' });
          this.failing = false;
        },
        (error: unknown) => {
          // Database away: said once, then tried again on the next wake.
          if (!this.failing) this.logger.warn({ msg: 'webhook relay cannot claim deliveries; will try again', error: error instanceof Error ? error.message : String(error) });
          this.failing = true;
        },
      )
      .finally(() => {
        this.pumping = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Claims as many due deliveries as there is room to send, and starts sending them. */
  private async pump(): Promise<void> {
    while (!this.stopped) {
      const room = RELAY.concurrency - this.inFlight.size;
      if (room <= 0) return;
      const claimed = await this.claim(room);
      for (const delivery of claimed) this.start(delivery);
      if (claimed.length < room) return;
    }
  }

  /** Up to `limit` due deliveries, claimed by this instance for one lease. */
  async claim(limit: number, now = new Date()): Promise<ClaimedRow[]> {
    const token = randomUUID();
    return this.dataSource.transaction(async (db) => {
      const due: { id: string }[] = await db.query(DUE_DELIVERIES + FOR_UPDATE_SKIP_LOCKED_SQL, [sqlDate(now), limit]);
      if (due.length === 0) return [];
      await db.query(`UPDATE webhook_deliveries SET claim_token = ?, next_attempt_at = ?, updated_at = ? WHERE id IN (${due.map(() => '?').join(', ')})`, [
        token,
        sqlDate(new Date(now.getTime() + RELAY.leaseMs)),
        sqlDate(now),
        ...due.map((d) => d.id),
      ]);
      return db.query(CLAIMED_DELIVERIES, [token]);
    });
  }

  private start(delivery: ClaimedRow): void {
    const key = `${delivery.deliveryID} ${delivery.claimToken}`;
    const abort = new AbortController();
    const done = this.deliver(delivery, abort.signal)
      .catch((error: unknown) => {
        // The claim stays; its lease ends and the delivery is tried again.
        this.logger.warn({ msg: 'webhook attempt could not be recorded', deliveryID: delivery.deliveryID, error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        this.inFlight.delete(key);
        this.wake();
      });
    this.inFlight.set(key, { abort, done });
  }

  /** One attempt of a claimed delivery, recorded (or handed back when shutdown stopped it). */
  async deliver(delivery: ClaimedRow, signal?: AbortSignal): Promise<void> {
    if (delivery.webhookStatus !== 'active') {
      await this.update("status = 'failed', next_attempt_at = NULL", [], delivery);
      return;
    }
    const at = new Date();
    const headers = signedHeaders(delivery.secret, delivery.deliveryID, at, delivery.payload);
    const outcome = await sendWebhook(delivery.url, delivery.payload, headers, { allowLocal: this.config.webhooks.allowLocal, timeoutMs: RELAY.timeoutMs, signal });
    if (outcome.aborted) {
      await this.update('next_attempt_at = ?', [sqlDate(new Date())], delivery);
      return;
    }
    await this.record(delivery, at, outcome);
  }

  /**
   * The attempt, and what follows from it: delivered on a 2xx; on 410 the endpoint is disabled and its
   * pending deliveries fail; otherwise the next step of the retry schedule, or failed after the last.
   * Nothing is written when the claim no longer holds (its lease ran out, or the endpoint was deleted).
   */
  async record(delivery: ClaimedRow, at: Date, outcome: SendOutcome): Promise<void> {
    const code = outcome.statusCode;
    const delivered = code !== null && code >= 200 && code < 300;
    const gone = code === 410;
    const failedSteps = delivered ? delivery.retryStep : delivery.retryStep + 1;
    const wait = delivered || gone ? null : retryDelayMs(failedSteps, this.config.webhooks.retryScheduleMs);
    const next = wait === null ? null : new Date(Date.now() + wait);
    const status = delivered ? 'delivered' : next ? 'pending' : 'failed';
    const now = sqlDate(new Date());
    await this.dataSource.transaction(async (db) => {
      const held = await affectedRows(
        db,
        'UPDATE webhook_deliveries SET status = ?, retry_step = ?, next_attempt_at = ?, claim_token = NULL, updated_at = ? WHERE id = ? AND claim_token = ?',
        [status, failedSteps, next && sqlDate(next), now, delivery.deliveryID, delivery.claimToken],
      );
      if (held === 0) return;
      await db.query(
        'INSERT INTO webhook_attempts (id, delivery_id, webhook_id, attempted_at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [uuidv7(at.getTime()), delivery.deliveryID, delivery.webhookID, sqlDate(at), code, outcome.error, outcome.durationMs],
      );
      if (gone) {
        await db.query("UPDATE webhooks SET status = 'disabled', disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND status = 'active'", [
          GONE_REASON,
          now,
          now,
          delivery.webhookID,
        ]);
        await db.query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, claim_token = NULL, updated_at = ? WHERE webhook_id = ? AND status = 'pending'", [
          now,
          delivery.webhookID,
        ]);
      }
    });
    this.logger.debug({ msg: 'webhook attempt', deliveryID: delivery.deliveryID, webhookID: delivery.webhookID, statusCode: code, error: outcome.error, durationMs: outcome.durationMs, status });
    if (next) this.wakeAt(next.getTime());
  }

  /** Settles a claim without an attempt (the endpoint is disabled, or shutdown handed it back). */
  private async update(set: string, params: unknown[], delivery: ClaimedRow): Promise<void> {
    await affectedRows(this.dataSource.manager, `UPDATE webhook_deliveries SET ${set}, claim_token = NULL, updated_at = ? WHERE id = ? AND claim_token = ?`, [
      ...params,
      sqlDate(new Date()),
      delivery.deliveryID,
      delivery.claimToken,
    ]);
  }

  /** Wakes when a retry this instance scheduled falls due, rather than on the next poll. */
  private wakeAt(at: number): void {
    // Later retries are found by the poll just as well; this keeps the list short.
    if (this.stopped || at - Date.now() > RETRY_TIMER_HORIZON_MS) return;
    const index = this.retriesDue.findIndex((t) => t > at);
    this.retriesDue.splice(index === -1 ? this.retriesDue.length : index, 0, at);
    if (index === 0 || this.retriesDue.length === 1) this.armRetryTimer();
  }

  private armRetryTimer(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.stopped || this.retriesDue.length === 0) return;
    this.retryTimer = setTimeout(() => {
      const now = Date.now();
      while (this.retriesDue.length > 0 && this.retriesDue[0] <= now) this.retriesDue.shift();
      this.wake();
      this.armRetryTimer();
    }, Math.max(0, this.retriesDue[0] - Date.now() + 5));
    this.retryTimer.unref();
  }
}
