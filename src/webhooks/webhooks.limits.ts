import { COMMON_LIMITS } from '../common/limits';

/** The event types, in the order the API lists them. */
export const WEBHOOK_EVENTS = ['invite.started', 'invite.completed', 'invite.abandoned', 'invite.expired', 'invite.revoked', 'invite.screenedout', 'invite.overquota', 'invite.flagged', 'profile.created', 'profile.updated', 'report.completed', 'participant.erased'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * After the n-th failed attempt the next one waits RETRY_SCHEDULE_SECONDS[n-1] (±10%); after the last
 * step the delivery is failed: 8 attempts over about 28 hours (Standard Webhooks' own example schedule).
 */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
export const RETRY_JITTER = 0.1;

export const WEBHOOK_LIMITS = {
  url: COMMON_LIMITS.url,
  /** `whsec_` + base64 of 32 bytes is 50 characters. */
  secret: 64,
  /** Bytes of randomness in a new secret. */
  secretBytes: 32,
  eventType: 32,
  status: 16,
  disabledReason: 200,
  /** An attempt's error text (a network error, a refused address), cut to this. */
  error: 500,
} as const;

/** How the relay works; the contract fixes the timeout. */
export const RELAY = {
  /** No answer (status line and headers) within this: the attempt failed. */
  timeoutMs: 10_000,
  /** A claim not settled within this (its instance crashed) is due again; well above the timeout. */
  leaseMs: 60_000,
  /** How often each instance looks for deliveries written by other instances or due for a retry. */
  pollMs: 2_000,
  /** Deliveries one instance sends at once. */
  concurrency: 16,
} as const;
