import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, LONG_TEXT, TIMESTAMP, jsonText } from '../database/column-types';
import { DeliveryStatus, WEBHOOK_LIMITS, WebhookEventType, WebhookStatus } from './webhooks.limits';

/** A registered endpoint. Its owner (orgID/userID) decides which events it receives, as a token's would. */
@Entity('webhooks')
@Index('idx_webhooks_org_created', ['orgID', 'createdAt', 'webhookID'])
@Index('idx_webhooks_user_created', ['userID', 'createdAt', 'webhookID'])
export class WebhookEndpoint {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  webhookID: string;

  @Column({ type: 'varchar', length: WEBHOOK_LIMITS.url })
  url: string;

  /** The event types it receives (a JSON array); null receives every type. */
  @Column({ type: 'varchar', length: 255, nullable: true, transformer: jsonText })
  events: WebhookEventType[] | null;

  @Column({ name: 'org_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  orgID: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  userID: string | null;

  /** Kept as it is: an HMAC is signed with the secret itself, so a hash would not do. */
  @Column({ type: 'varchar', length: WEBHOOK_LIMITS.secret, ...EXACT_TEXT })
  secret: string;

  @Column({ type: 'varchar', length: WEBHOOK_LIMITS.status })
  status: WebhookStatus;

  @Column({ name: 'disabled_reason', type: 'varchar', length: WEBHOOK_LIMITS.disabledReason, nullable: true })
  disabledReason: string | null;

  @Column({ name: 'disabled_at', ...TIMESTAMP, nullable: true })
  disabledAt: Date | null;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;
}

/**
 * The outbox: one row per event and endpoint, written in the transaction of the change that caused
 * the event. The relay claims due rows (next_attempt_at passed) by setting claim_token and pushing
 * next_attempt_at a lease ahead; a claim whose instance died is due again when the lease runs out.
 */
@Entity('webhook_deliveries')
@Index('idx_webhook_deliveries_webhook_created', ['webhookID', 'createdAt', 'deliveryID'])
@Index('idx_webhook_deliveries_due', ['status', 'nextAttemptAt'])
export class WebhookDelivery {
  /** Also the webhook-id header: the same on every attempt. */
  @PrimaryColumn({ name: 'id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  deliveryID: string;

  @Column({ name: 'webhook_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  webhookID: string;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id', foreignKeyConstraintName: 'fk_webhook_deliveries_webhook' })
  webhook?: WebhookEndpoint;

  @Column({ name: 'event_type', type: 'varchar', length: WEBHOOK_LIMITS.eventType })
  type: WebhookEventType;

  /** The exact body sent (and signed) on every attempt. */
  @Column({ type: LONG_TEXT })
  payload: string;

  @Column({ type: 'varchar', length: WEBHOOK_LIMITS.status })
  status: DeliveryStatus;

  /** Failed attempts since the delivery was written (or redelivered): the step of the retry schedule. */
  @Column({ name: 'retry_step', type: 'integer', default: 0 })
  retryStep: number;

  /** When the next attempt is due (or the current claim's lease ends); null once delivered or failed. */
  @Column({ name: 'next_attempt_at', ...TIMESTAMP, nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'claim_token', type: 'varchar', length: COMMON_LIMITS.uuid, nullable: true, ...EXACT_TEXT })
  claimToken: string | null;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;
}

/** One attempt to send a delivery: when, what came back (a status code or an error) and how long it took. */
@Entity('webhook_attempts')
@Index('idx_webhook_attempts_delivery', ['deliveryID', 'attemptedAt'])
@Index('idx_webhook_attempts_webhook', ['webhookID', 'attemptedAt'])
export class WebhookAttempt {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  attemptID: string;

  @Column({ name: 'delivery_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  deliveryID: string;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'fk_webhook_attempts_delivery' })
  delivery?: WebhookDelivery;

  /** The endpoint's last attempt is one index lookup away (getOne and getList show it). */
  @Column({ name: 'webhook_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  webhookID: string;

  @Column({ name: 'attempted_at', ...TIMESTAMP })
  attemptedAt: Date;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'varchar', length: WEBHOOK_LIMITS.error, nullable: true })
  error: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;
}
