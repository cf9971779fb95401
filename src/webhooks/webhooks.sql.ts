import { rawDate } from '../database/column-types';
import type { AttemptDto, DeliveryDto, LastDeliveryDto, WebhookDto } from './dto/webhook.dto';
import { DeliveryStatus, WEBHOOK_EVENTS, WebhookEventType, WebhookStatus } from './webhooks.limits';

/** The webhook reads in plain SQL ('?' placeholders work on both drivers); see products.sql.ts. */

/** An endpoint as the API shows it, with the id of its most recent attempt (index idx_webhook_attempts_webhook). */
export const WEBHOOK_COLUMNS =
  'w.id AS webhookID, w.url AS url, w.events AS events, w.org_id AS orgID, w.user_id AS userID, w.status AS status, ' +
  'w.disabled_reason AS disabledReason, w.disabled_at AS disabledAt, w.created_at AS createdAt, ' +
  '(SELECT a.id FROM webhook_attempts a WHERE a.webhook_id = w.id ORDER BY a.attempted_at DESC, a.id DESC LIMIT 1) AS lastAttemptID';

export const WEBHOOK_BY_ID = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks w WHERE w.id = ?`;
export const WEBHOOK_LIST = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks w`;
export const WEBHOOK_KEYS = { created: 'w.created_at', id: 'w.id' } as const;

export interface WebhookRow {
  webhookID: string;
  url: string;
  events: string | null;
  orgID: string | null;
  userID: string | null;
  status: WebhookStatus;
  disabledReason: string | null;
  disabledAt: Date | string | null;
  createdAt: Date | string;
  lastAttemptID: string | null;
}

/** Attempts by id with their delivery's event type: the endpoints' last deliveries (the caller adds the IN list). */
export const LAST_ATTEMPTS =
  'SELECT a.id AS attemptID, a.delivery_id AS deliveryID, d.event_type AS type, a.attempted_at AS attemptedAt, a.status_code AS statusCode, ' +
  'a.error AS error, a.duration_ms AS durationMs FROM webhook_attempts a INNER JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE a.id IN ';

export interface AttemptRow {
  attemptID?: string;
  deliveryID: string;
  type?: WebhookEventType;
  attemptedAt: Date | string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** The active endpoints whose owner matches (the caller appends the owners' condition, viewersOfSql). */
export const ACTIVE_ENDPOINTS = "SELECT w.id AS webhookID, w.org_id AS orgID, w.user_id AS userID, w.events AS events FROM webhooks w WHERE w.status = 'active' AND ";

export interface EndpointRow {
  webhookID: string;
  orgID: string | null;
  userID: string | null;
  events: string | null;
}

export const DELIVERY_COLUMNS =
  'd.id AS deliveryID, d.webhook_id AS webhookID, d.event_type AS type, d.payload AS payload, d.status AS status, ' +
  'd.next_attempt_at AS nextAttemptAt, d.claim_token AS claimToken, d.created_at AS createdAt';

/** A delivery with its endpoint's owners, which decide who may see it, and the endpoint's status. */
export const DELIVERY_WITH_OWNER_BY_ID = `SELECT ${DELIVERY_COLUMNS}, w.org_id AS ownerOrgID, w.user_id AS ownerUserID, w.status AS webhookStatus
  FROM webhook_deliveries d INNER JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ?`;

export const DELIVERY_LIST = `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d`;
export const DELIVERY_KEYS = { created: 'd.created_at', id: 'd.id' } as const;

export interface DeliveryRow {
  deliveryID: string;
  webhookID: string;
  type: WebhookEventType;
  payload: string;
  status: DeliveryStatus;
  nextAttemptAt: Date | string | null;
  claimToken: string | null;
  createdAt: Date | string;
}

/** The attempts of some deliveries, in order (the caller adds the IN list). */
export const ATTEMPTS_OF_DELIVERIES =
  'SELECT a.delivery_id AS deliveryID, a.attempted_at AS attemptedAt, a.status_code AS statusCode, a.error AS error, a.duration_ms AS durationMs ' +
  'FROM webhook_attempts a WHERE a.delivery_id IN ';
export const ATTEMPTS_ORDER = ' ORDER BY a.delivery_id, a.attempted_at, a.id';

/** Rows per INSERT of deliveries: 6 parameters each, well under SQLite's variable limit. */
export const DELIVERY_INSERT_CHUNK = 500;

export function deliveryInsertSql(rows: number): string {
  return (
    'INSERT INTO webhook_deliveries (id, webhook_id, event_type, payload, next_attempt_at, created_at, updated_at, status, retry_step, claim_token) VALUES ' +
    new Array<string>(rows).fill("(?, ?, ?, ?, ?, ?, ?, 'pending', 0, NULL)").join(', ')
  );
}

/** What an invite event says, and who owns its product (which endpoints may see it). The caller adds the IN list. */
export const INVITE_EVENT_ROWS =
  'SELECT i.link_id AS linkID, i.interview_id AS interviewID, i.product_id AS productID, i.org_id AS orgID, i.status AS status, ' +
  'i.completed_on AS completedOn, p.org_id AS ownerOrgID, p.user_id AS ownerUserID FROM invites i INNER JOIN products p ON p.id = i.product_id WHERE i.link_id IN ';

export interface InviteEventRow {
  linkID: string;
  interviewID: string;
  productID: string;
  orgID: string | null;
  status: string;
  completedOn: Date | string | null;
  ownerOrgID: string | null;
  ownerUserID: string | null;
}

/** A profile's products with their owners, oldest product first (as Profile.productIDs lists them). */
export const PROFILE_EVENT_PRODUCTS = `SELECT p.id AS productID, p.org_id AS orgID, p.user_id AS userID
  FROM profile_products pp INNER JOIN products p ON p.id = pp.product_id WHERE pp.profile_id = ? ORDER BY p.created_at, p.id`;

/** Due deliveries for the relay, oldest due first (the caller appends SKIP LOCKED on MySQL). */
export const DUE_DELIVERIES = "SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?";

/** What a claim needs to send: the body, the endpoint's URL, secret and status. */
export const CLAIMED_DELIVERIES = `SELECT d.id AS deliveryID, d.webhook_id AS webhookID, d.payload AS payload, d.retry_step AS retryStep, d.claim_token AS claimToken,
  w.url AS url, w.secret AS secret, w.status AS webhookStatus FROM webhook_deliveries d INNER JOIN webhooks w ON w.id = d.webhook_id WHERE d.claim_token = ?`;

export interface ClaimedRow {
  deliveryID: string;
  webhookID: string;
  payload: string;
  retryStep: number;
  claimToken: string;
  url: string;
  secret: string;
  webhookStatus: WebhookStatus;
}

/** A stored events column as the API shows it: every type when null. */
export function eventsOf(stored: string | null): WebhookEventType[] {
  return stored === null ? [...WEBHOOK_EVENTS] : (JSON.parse(stored) as WebhookEventType[]);
}

const iso = (value: Date | string | null): string | null => (value === null ? null : rawDate(value).toISOString());

export function attemptFromRow(r: AttemptRow): AttemptDto {
  return { attempted_on: iso(r.attemptedAt)!, statusCode: r.statusCode === null ? null : Number(r.statusCode), error: r.error, durationMs: Number(r.durationMs) };
}

export function webhookFromRow(r: WebhookRow, last: AttemptRow | undefined): WebhookDto {
  const lastDelivery: LastDeliveryDto | null = last ? { deliveryID: last.deliveryID, type: last.type!, ...attemptFromRow(last) } : null;
  return {
    webhookID: r.webhookID,
    url: r.url,
    events: eventsOf(r.events),
    orgID: r.orgID,
    userID: r.userID,
    status: r.status,
    disabledReason: r.disabledReason,
    disabled_on: iso(r.disabledAt),
    created_on: iso(r.createdAt)!,
    lastDelivery,
  };
}

export function deliveryFromRow(r: DeliveryRow, attempts: AttemptRow[]): DeliveryDto {
  return {
    deliveryID: r.deliveryID,
    webhookID: r.webhookID,
    type: r.type,
    status: r.status,
    created_on: iso(r.createdAt)!,
    // While a claim is out the row holds the lease's end, which is no one's business but the relay's.
    next_attempt_on: r.status === 'pending' && r.claimToken === null ? iso(r.nextAttemptAt) : null,
    attempts: attempts.map(attemptFromRow),
    payload: JSON.parse(r.payload) as DeliveryDto['payload'],
  };
}
