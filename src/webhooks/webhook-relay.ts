import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '../common/ids';
import { retryDelayMs } from './retry-schedule';
import { SendOutcome, sendWebhook } from './webhook-sender';
import { signedHeaders } from './webhook-signing';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhooksConfig } from './webhooks.config';
import { RELAY } from './webhooks.limits';
import { ClaimedRow, WebhooksRepository } from './webhooks.repository';
import { transaction } from '../database/transaction';
import { Metrics, WebhookAttemptResult } from '../metrics/metrics.service';
import { inSpan } from '../common/spans';
import { outsideCaller } from '../common/background';

const GONE_REASON = 'the endpoint answered 410 Gone';
const RETRY_TIMER_HORIZON_MS = 60_000;

/**
 * Sends the outbox's deliveries. Runs in every instance of the HTTP service (registered in AppModule
 * only, not in the seed's context), beside request handling and never in its way: every send is
 * asynchronous I/O, every database step a short transaction of its own.
 *
 * A delivery is claimed by one instance at a time (WebhooksRepository.claim) for a lease; the result is
 * recorded only while the claim still holds, so the claim of an instance that died is due again when
 * its lease ends.
 *
 * It wakes when this process commits new deliveries, when a retry it scheduled falls due, and every
 * couple of seconds (an interval of @nestjs/schedule) for deliveries written or scheduled by other instances.
 */
@Injectable()
export class WebhookRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookRelay.name);
  /** The sends under way, by claim (a delivery and the token it was claimed with). */
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private stopped = true;
  private pumping?: Promise<void>;
  private again = false;
  /** When retries this instance scheduled fall due, earliest first, and the timer for the first. */
  private readonly retriesDue: number[] = [];
  private retryTimer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private failing = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly outbox: WebhookOutbox,
    private readonly config: WebhooksConfig,
    private readonly scheduler: SchedulerRegistry,
    private readonly metrics: Metrics,
  ) {
    metrics.gauge('irs_webhook_due_deliveries', 'Webhook deliveries due now and not being sent (all instances)', [], async (set) => {
      set((await webhooks.dueBacklog(new Date())).count);
    });
    metrics.gauge('irs_webhook_oldest_due_age_seconds', 'How long the oldest due webhook delivery has waited past its due time (0: none waiting)', [], async (set) => {
      const now = new Date();
      const { oldestDue } = await webhooks.dueBacklog(now);
      set(oldestDue ? Math.max(0, (now.getTime() - oldestDue.getTime()) / 1000) : 0);
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.allowLocal) {
      this.logger.warn({
        msg: 'WEBHOOK_ALLOW_LOCAL is on: webhooks may be sent over http and to loopback, private and link-local addresses. For development and tests only; never in production.',
      });
    }
    this.stopped = false;
    this.unsubscribe = this.outbox.onWritten(() => this.wake());
    this.scheduler.addInterval(WebhookRelay.name, setInterval(() => this.wake(), RELAY.pollMs));
    this.wake();
  }

  /** Stops claiming, and hands back what is being sent: those deliveries are due again at once, for any instance. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.retryTimer);
    await this.pumping;
    const sending = [...this.inFlight.values()];
    for (const s of sending) s.abort.abort();
    await Promise.all(sending.map((s) => s.done));
  }

  /** Looks for due deliveries now (again right after, when a look is already under way), in a context of its own. */
  wake(): void {
    outsideCaller(() => this.look());
  }

  private look(): void {
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
          this.look();
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
    return this.webhooks.claim(randomUUID(), limit, now, new Date(now.getTime() + RELAY.leaseMs));
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
  deliver(delivery: ClaimedRow, signal?: AbortSignal): Promise<void> {
    // A root span of its own (the relay runs outside requests), the HTTP send its child; no URL, no payload.
    return inSpan('webhook.send', { 'irs.webhook.retry_step': delivery.retryStep }, async (span) => {
      const outcome = await this.attempt(delivery, signal);
      if (outcome) span.setAttribute('irs.webhook.result', outcome);
    }, { root: true });
  }

  private async attempt(delivery: ClaimedRow, signal?: AbortSignal): Promise<WebhookAttemptResult | 'handed-back' | 'endpoint-inactive'> {
    if (delivery.webhookStatus !== 'active') {
      await this.webhooks.settle(this.dataSource.manager, delivery, { status: 'failed', nextAttemptAt: null }, new Date());
      return 'endpoint-inactive';
    }
    const at = new Date();
    const headers = signedHeaders(delivery.secret, delivery.deliveryID, at, delivery.payload);
    const outcome = await sendWebhook(delivery.url, delivery.payload, headers, { allowLocal: this.config.allowLocal, timeoutMs: this.config.timeoutMs, signal });
    if (outcome.aborted) {
      await this.webhooks.settle(this.dataSource.manager, delivery, { nextAttemptAt: new Date() }, new Date());
      return 'handed-back';
    }
    return this.record(delivery, at, outcome);
  }

  /**
   * The attempt, and what follows from it: delivered on a 2xx; on 410 the endpoint is disabled and its
   * pending deliveries fail; otherwise the next step of the retry schedule, or failed after the last.
   * Nothing is written when the claim no longer holds (its lease ran out, or the endpoint was deleted).
   */
  async record(delivery: ClaimedRow, at: Date, outcome: SendOutcome): Promise<WebhookAttemptResult> {
    const code = outcome.statusCode;
    const delivered = code !== null && code >= 200 && code < 300;
    const gone = code === 410;
    const failedSteps = delivered ? delivery.retryStep : delivery.retryStep + 1;
    const wait = delivered || gone ? null : retryDelayMs(failedSteps, this.config.retryScheduleMs);
    const next = wait === null ? null : new Date(Date.now() + wait);
    const status = delivered ? 'delivered' : next ? 'pending' : 'failed';
    const now = new Date();
    await transaction(this.dataSource, async (db) => {
      if (!(await this.webhooks.settle(db, delivery, { status, retryStep: failedSteps, nextAttemptAt: next }, now))) return;
      await this.webhooks.insertAttempt(db, {
        attemptID: uuidv7(),
        deliveryID: delivery.deliveryID,
        webhookID: delivery.webhookID,
        attemptedAt: at,
        statusCode: code,
        error: outcome.error,
        durationMs: outcome.durationMs,
      });
      if (gone) await this.webhooks.disableEndpoint(db, delivery.webhookID, GONE_REASON, now);
    });
    const result: WebhookAttemptResult = delivered ? 'delivered' : gone ? 'gone' : code === null ? 'unreachable' : 'failed';
    this.metrics.webhookAttempt(result);
    this.logger.debug({ msg: 'webhook attempt', deliveryID: delivery.deliveryID, webhookID: delivery.webhookID, statusCode: code, error: outcome.error, durationMs: outcome.durationMs, status });
    if (next) this.wakeAt(next.getTime());
    return result;
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
