import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { viewersOfSql } from '../access/access-rule';
import { KeysetList, SqlCondition, SqlWhere } from '../common/keyset';
import { IN_CHUNK } from '../common/limits';
import { FOR_UPDATE_SKIP_LOCKED_SQL, affectedRows, rawDate, sqlDate } from '../database/column-types';
import { DeliveryStatus, WebhookEventType, WebhookStatus } from './webhooks.limits';
import { transaction } from '../database/transaction';

/** An endpoint as the API shows it (never its secret), with the id of its most recent attempt. */
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

export interface AttemptRow {
  attemptID?: string;
  deliveryID: string;
  type?: WebhookEventType;
  attemptedAt: Date | string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** An active endpoint, as the outbox fans events out to it. */
export interface EndpointRow {
  webhookID: string;
  orgID: string | null;
  userID: string | null;
  events: string | null;
}

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

/** What a claim needs to send: the body, the endpoint's URL, secret and status. */
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

/** A delivery to write: [id, webhookID, event type, payload]. */
export type NewDelivery = [string, string, string, string];

const WEBHOOK_COLUMNS =
  'w.id AS webhookID, w.url AS url, w.events AS events, w.org_id AS orgID, w.user_id AS userID, w.status AS status, ' +
  'w.disabled_reason AS disabledReason, w.disabled_at AS disabledAt, w.created_at AS createdAt, ' +
  // The last attempt is one index lookup away (idx_webhook_attempts_webhook).
  '(SELECT a.id FROM webhook_attempts a WHERE a.webhook_id = w.id ORDER BY a.attempted_at DESC, a.id DESC LIMIT 1) AS lastAttemptID';

const DELIVERY_COLUMNS =
  'd.id AS deliveryID, d.webhook_id AS webhookID, d.event_type AS type, d.payload AS payload, d.status AS status, ' +
  'd.next_attempt_at AS nextAttemptAt, d.claim_token AS claimToken, d.created_at AS createdAt';

/** Rows per INSERT of deliveries: 7 parameters each, well under SQLite's variable limit. */
const DELIVERY_INSERT_CHUNK = 500;

const inList = (n: number) => `(${new Array<string>(n).fill('?').join(', ')})`;

/** The webhooks, webhook_deliveries (the outbox) and webhook_attempts tables. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  // --- endpoints --------------------------------------------------------------------------------

  async insertEndpoint(e: { webhookID: string; url: string; events: string[] | null; orgID: string | null; userID: string | null; secret: string }, now: Date): Promise<void> {
    const at = sqlDate(now);
    await this.dataSource.query(
      "INSERT INTO webhooks (id, url, events, org_id, user_id, secret, status, disabled_reason, disabled_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'active', NULL, NULL, ?, ?)",
      [e.webhookID, e.url, e.events ? JSON.stringify(e.events) : null, e.orgID, e.userID, e.secret, at, at],
    );
  }

  async findEndpoint(webhookID: string): Promise<WebhookRow | undefined> {
    const [row] = await this.dataSource.query<WebhookRow[]>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks w WHERE w.id = ?`, [webhookID]);
    return row;
  }

  listEndpoints(filter: { orgID?: string; userID?: string }, scope: SqlCondition | undefined): KeysetList<WebhookRow> {
    const where = new SqlWhere();
    if (filter.orgID !== undefined) where.and('w.org_id = ?', filter.orgID);
    if (filter.userID !== undefined) where.and('w.user_id = ?', filter.userID);
    if (scope) where.and(scope);
    return new KeysetList<WebhookRow>({
      query: (sql, params) => this.dataSource.query(sql, params),
      columns: WEBHOOK_COLUMNS,
      from: 'webhooks w',
      where,
      keys: { created: 'w.created_at', id: 'w.id' },
      idOf: (r) => r.webhookID,
    });
  }

  /** Deletes the endpoint; its deliveries and their attempts go with it (foreign keys ON DELETE CASCADE). */
  async deleteEndpoint(webhookID: string): Promise<void> {
    await this.dataSource.query('DELETE FROM webhooks WHERE id = ?', [webhookID]);
  }

  /**
   * The active endpoints whose owner can see at least one of these products: who receives an event
   * about them (an endpoint sees as a token with its orgID and userID would, never as an admin).
   */
  async endpointsSeeing(db: EntityManager, products: readonly Owned[]): Promise<EndpointRow[]> {
    const scope = viewersOfSql(products, 'w');
    if (scope.params.length === 0) return [];
    return db.query(`SELECT w.id AS webhookID, w.org_id AS orgID, w.user_id AS userID, w.events AS events FROM webhooks w WHERE w.status = 'active' AND ${scope.sql}`, scope.params);
  }

  /** 410 Gone: the endpoint is disabled and its pending deliveries fail. */
  async disableEndpoint(db: EntityManager, webhookID: string, reason: string, now: Date): Promise<void> {
    const at = sqlDate(now);
    await db.query("UPDATE webhooks SET status = 'disabled', disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND status = 'active'", [reason, at, at, webhookID]);
    await db.query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, claim_token = NULL, updated_at = ? WHERE webhook_id = ? AND status = 'pending'", [at, webhookID]);
  }

  // --- deliveries (the outbox) ---------------------------------------------------------------------

  /** New pending deliveries, due at `at`, in the caller's transaction. */
  async insertDeliveries(db: EntityManager, rows: NewDelivery[], at: Date): Promise<void> {
    const when = sqlDate(at);
    for (let i = 0; i < rows.length; i += DELIVERY_INSERT_CHUNK) {
      const chunk = rows.slice(i, i + DELIVERY_INSERT_CHUNK);
      await db.query(
        'INSERT INTO webhook_deliveries (id, webhook_id, event_type, payload, next_attempt_at, created_at, updated_at, status, retry_step, claim_token) VALUES ' +
          new Array<string>(chunk.length).fill("(?, ?, ?, ?, ?, ?, ?, 'pending', 0, NULL)").join(', '),
        chunk.flatMap((r) => [...r, when, when, when]),
      );
    }
  }

  /** The delivery with its endpoint's owners (who may see it) and status. */
  async findDelivery(deliveryID: string): Promise<(DeliveryRow & { owner: Owned; webhookStatus: WebhookStatus }) | undefined> {
    const [row] = await this.dataSource.query<(DeliveryRow & { ownerOrgID: string | null; ownerUserID: string | null; webhookStatus: WebhookStatus })[]>(
      `SELECT ${DELIVERY_COLUMNS}, w.org_id AS ownerOrgID, w.user_id AS ownerUserID, w.status AS webhookStatus FROM webhook_deliveries d INNER JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ?`,
      [deliveryID],
    );
    if (!row) return undefined;
    const { ownerOrgID, ownerUserID, ...delivery } = row;
    return { ...delivery, owner: { orgID: ownerOrgID, userID: ownerUserID } };
  }

  listDeliveries(webhookID: string): KeysetList<DeliveryRow> {
    return new KeysetList<DeliveryRow>({
      query: (sql, params) => this.dataSource.query(sql, params),
      columns: DELIVERY_COLUMNS,
      from: 'webhook_deliveries d',
      where: new SqlWhere().and('d.webhook_id = ?', webhookID),
      keys: { created: 'd.created_at', id: 'd.id' },
      idOf: (r) => r.deliveryID,
    });
  }

  /**
   * Queues a delivery again, due now, with the retry schedule from its start; a claim whose lease has
   * run out belongs to an instance that is gone and may be taken over. False while one is being sent.
   */
  async requeue(deliveryID: string, now: Date): Promise<boolean> {
    const at = sqlDate(now);
    return (
      (await affectedRows(
        this.dataSource.manager,
        "UPDATE webhook_deliveries SET status = 'pending', retry_step = 0, next_attempt_at = ?, claim_token = NULL, updated_at = ? WHERE id = ? AND (claim_token IS NULL OR next_attempt_at <= ?)",
        [at, at, deliveryID, at],
      )) > 0
    );
  }

  /** The deliveries due now and not being sent (a claimed one is due at its lease's end), and the oldest one's due time. */
  async dueBacklog(now: Date): Promise<{ count: number; oldestDue: Date | null }> {
    const [row] = await this.dataSource.query<{ n: number | string; oldest: Date | string | null }[]>(
      "SELECT COUNT(*) AS n, MIN(next_attempt_at) AS oldest FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?",
      [sqlDate(now)],
    );
    return { count: Number(row.n), oldestDue: row.oldest === null ? null : rawDate(row.oldest) };
  }

  /**
   * Up to `limit` due deliveries, claimed with `token` until `leaseEnds`: a transaction takes due rows
   * (FOR UPDATE SKIP LOCKED on MySQL/MariaDB, so instances pass over each other's; the embedded
   * database has one process), marks them with the token and moves their due time to the lease's end.
   */
  async claim(token: string, limit: number, now: Date, leaseEnds: Date): Promise<ClaimedRow[]> {
    return transaction(this.dataSource, async (db) => {
      const due = await db.query<{ id: string }[]>(
        `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?${FOR_UPDATE_SKIP_LOCKED_SQL}`,
        [sqlDate(now), limit],
      );
      if (due.length === 0) return [];
      await db.query(`UPDATE webhook_deliveries SET claim_token = ?, next_attempt_at = ?, updated_at = ? WHERE id IN ${inList(due.length)}`, [
        token,
        sqlDate(leaseEnds),
        sqlDate(now),
        ...due.map((d) => d.id),
      ]);
      return db.query(
        'SELECT d.id AS deliveryID, d.webhook_id AS webhookID, d.payload AS payload, d.retry_step AS retryStep, d.claim_token AS claimToken, ' +
          'w.url AS url, w.secret AS secret, w.status AS webhookStatus FROM webhook_deliveries d INNER JOIN webhooks w ON w.id = d.webhook_id WHERE d.claim_token = ?',
        [token],
      );
    });
  }

  /**
   * Settles a claim: the delivery's new state (and `claim_token` cleared), only while the claim still
   * holds. False when it no longer does (its lease ran out, or the endpoint was deleted).
   */
  async settle(
    db: EntityManager,
    claim: Pick<ClaimedRow, 'deliveryID' | 'claimToken'>,
    next: { status?: DeliveryStatus; retryStep?: number; nextAttemptAt: Date | null },
    now: Date,
  ): Promise<boolean> {
    const columns: [string, unknown][] = [['next_attempt_at', next.nextAttemptAt && sqlDate(next.nextAttemptAt)]];
    if (next.status !== undefined) columns.push(['status', next.status]);
    if (next.retryStep !== undefined) columns.push(['retry_step', next.retryStep]);
    const set = columns.map(([c]) => `${c} = ?`).join(', ');
    return (
      (await affectedRows(db, `UPDATE webhook_deliveries SET ${set}, claim_token = NULL, updated_at = ? WHERE id = ? AND claim_token = ?`, [
        ...columns.map(([, v]) => v),
        sqlDate(now),
        claim.deliveryID,
        claim.claimToken,
      ])) > 0
    );
  }

  // --- attempts -------------------------------------------------------------------------------------

  async insertAttempt(
    db: EntityManager,
    a: { attemptID: string; deliveryID: string; webhookID: string; attemptedAt: Date; statusCode: number | null; error: string | null; durationMs: number },
  ): Promise<void> {
    await db.query('INSERT INTO webhook_attempts (id, delivery_id, webhook_id, attempted_at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      a.attemptID,
      a.deliveryID,
      a.webhookID,
      sqlDate(a.attemptedAt),
      a.statusCode,
      a.error,
      a.durationMs,
    ]);
  }

  /** Attempts by id, with their delivery's event type: the endpoints' last deliveries. */
  async attemptsById(attemptIDs: string[]): Promise<AttemptRow[]> {
    const out: AttemptRow[] = [];
    for (let i = 0; i < attemptIDs.length; i += IN_CHUNK) {
      const ids = attemptIDs.slice(i, i + IN_CHUNK);
      out.push(
        ...(await this.dataSource.query<AttemptRow[]>(
          'SELECT a.id AS attemptID, a.delivery_id AS deliveryID, d.event_type AS type, a.attempted_at AS attemptedAt, a.status_code AS statusCode, ' +
            `a.error AS error, a.duration_ms AS durationMs FROM webhook_attempts a INNER JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE a.id IN ${inList(ids.length)}`,
          ids,
        )),
      );
    }
    return out;
  }

  /** The attempts of some deliveries, in order. */
  async attemptsOf(deliveryIDs: string[]): Promise<AttemptRow[]> {
    const out: AttemptRow[] = [];
    for (let i = 0; i < deliveryIDs.length; i += IN_CHUNK) {
      const ids = deliveryIDs.slice(i, i + IN_CHUNK);
      out.push(
        ...(await this.dataSource.query<AttemptRow[]>(
          'SELECT a.delivery_id AS deliveryID, a.attempted_at AS attemptedAt, a.status_code AS statusCode, a.error AS error, a.duration_ms AS durationMs ' +
            `FROM webhook_attempts a WHERE a.delivery_id IN ${inList(ids.length)} ORDER BY a.delivery_id, a.attempted_at, a.id`,
          ids,
        )),
      );
    }
    return out;
  }
}
