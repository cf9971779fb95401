import type { ConfigType } from '@nestjs/config';
import { Injectable, Logger, OnApplicationBootstrap, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '../common/ids';
import { retryDelayMs } from './retry-schedule';
import { SendOutcome, sendWebhook } from './webhook-sender';
import { signedHeaders } from './webhook-signing';
import { WebhookOutbox } from './webhook-outbox.service';
import { webhooksConfig } from './webhooks.config';
import { RELAY } from './webhooks.limits';
import { ClaimedDelivery, WebhooksRepository } from './webhooks.repository';
import { transaction } from '../database/transaction';
import { Metrics, WebhookAttemptResult } from '../metrics/metrics.service';
import { inSpan } from '../common/spans';
import { Background, LoopHandle } from '../common/background';

const GONE_REASON = 'the endpoint answered 410 Gone';
const RETRY_TIMER_HORIZON_MS = 60_000;

/**
 * Sends the outbox's deliveries. Runs in every instance of the HTTP service (BackgroundModule), beside
 * request handling and never in its way: every send is asynchronous I/O, every database step a short
 * transaction of its own.
 *
 * A leased loop of the Background component: a delivery is claimed by one instance at a time
 * (WebhooksRepository.claim) for a lease; the result is recorded only while the claim still holds, so
 * the claim of an instance that died is due again when its lease ends. At shutdown the sends under way
 * are stopped and handed back, due again at once for any instance.
 *
 * It wakes when this process commits new deliveries, when a retry it scheduled falls due, and every
 * couple of seconds for deliveries written or scheduled by other instances.
 */
@Injectable()
export class WebhookRelay implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhookRelay.name);
  private readonly loop: LoopHandle;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    outbox: WebhookOutbox,
    @Inject(webhooksConfig.KEY) private readonly config: ConfigType<typeof webhooksConfig>,
    background: Background,
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
    this.loop = background.leased<ClaimedDelivery>({
      name: WebhookRelay.name,
      everyMs: RELAY.pollMs,
      atStart: true,
      leaseMs: RELAY.leaseMs,
      concurrency: RELAY.concurrency,
      failing: 'webhook relay cannot claim deliveries; will try again',
      recovered: 'webhook relay is working again',
      claim: (token, limit, now, leaseEnds) => this.webhooks.claim(token, limit, now, leaseEnds),
      run: (delivery, signal) =>
        this.deliver(delivery, signal).catch((error: unknown) => {
          // The claim stays; its lease ends and the delivery is tried again.
          this.logger.warn({ msg: 'webhook attempt could not be recorded', deliveryID: delivery.deliveryID, error: error instanceof Error ? error.message : String(error) });
        }),
    });
    outbox.onWritten(() => this.wake());
  }

  onApplicationBootstrap(): void {
    if (this.config.allowLocal) {
      this.logger.warn({
        msg: 'WEBHOOK_ALLOW_LOCAL is on: webhooks may be sent over http and to loopback, private and link-local addresses. For development and tests only; never in production.',
      });
    }
  }

  /** Stops claiming, and hands back what is being sent (as at shutdown). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Looks for due deliveries now (again right after, when a look is already under way), in a context of its own. */
  wake(): void {
    this.loop.wake();
  }

  /** One attempt of a claimed delivery, recorded (or handed back when shutdown stopped it). */
  deliver(delivery: ClaimedDelivery, signal?: AbortSignal): Promise<void> {
    // A root span of its own (the relay runs outside requests), the HTTP send its child; no URL, no payload.
    return inSpan('webhook.send', { 'irs.webhook.retry_step': delivery.retryStep }, async (span) => {
      const outcome = await this.attempt(delivery, signal);
      if (outcome) span.setAttribute('irs.webhook.result', outcome);
    }, { root: true });
  }

  private async attempt(delivery: ClaimedDelivery, signal?: AbortSignal): Promise<WebhookAttemptResult | 'handed-back' | 'endpoint-inactive'> {
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
  async record(delivery: ClaimedDelivery, at: Date, outcome: SendOutcome): Promise<WebhookAttemptResult> {
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
    // Wakes when the retry falls due rather than on the next poll; later ones the poll finds just as well.
    if (next && next.getTime() - Date.now() <= RETRY_TIMER_HORIZON_MS) this.loop.wakeAt(next.getTime() + 5);
    return result;
  }
}
