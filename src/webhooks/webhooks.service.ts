import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { MissingOneOfException } from '../common/errors';
import { uuidv7 } from '../common/ids';
import { Page, SqlWhere, pagedSql, toPage } from '../common/keyset';
import { IN_CHUNK } from '../common/limits';
import { AppConfig } from '../config/app-config';
import { affectedRows, rawDate, sqlDate } from '../database/column-types';
import { CreateWebhookDto, DeleteWebhookDto, ListDeliveriesQueryDto, ListWebhooksQueryDto, RedeliverDto } from './dto/webhook-input.dto';
import { DeliveryDto, RedeliveryDto, WebhookCreatedDto, WebhookDeletedDto, WebhookDto } from './dto/webhook.dto';
import { WebhookOutbox } from './webhook-outbox.service';
import { newWebhookSecret } from './webhook-signing';
import { checkTarget } from './webhook-targets';
import { DeliveryInProgressException, WebhookDisabledException, WebhookTargetRefusedException } from './webhooks.errors';
import {
  ATTEMPTS_OF_DELIVERIES,
  ATTEMPTS_ORDER,
  AttemptRow,
  DELIVERY_KEYS,
  DELIVERY_LIST,
  DeliveryRow,
  LAST_ATTEMPTS,
  WEBHOOK_KEYS,
  WEBHOOK_LIST,
  WebhookRow,
  deliveryFromRow,
  webhookFromRow,
} from './webhooks.sql';

const OWNERS = ['orgID', 'userID'];

const inList = (n: number) => `(${new Array<string>(n).fill('?').join(', ')})`;

/** The /v1/webhooks API: endpoints with the owner rules of products, their deliveries, and redelivery. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: AccessService,
    private readonly outbox: WebhookOutbox,
    private readonly config: AppConfig,
  ) {}

  async create(dto: CreateWebhookDto, principal: Principal): Promise<WebhookCreatedDto> {
    const owner = { orgID: dto.orgID ?? null, userID: dto.userID ?? null };
    if (owner.orgID === null && owner.userID === null) throw new MissingOneOfException(OWNERS);
    this.access.assertWritable(principal, owner, 'the webhook');
    const refused = await checkTarget(new URL(dto.url), this.config.webhooks.allowLocal);
    if (refused) throw new WebhookTargetRefusedException(refused);
    const now = new Date();
    const webhookID = uuidv7(now.getTime());
    const secret = newWebhookSecret();
    const at = sqlDate(now);
    await this.dataSource.query(
      "INSERT INTO webhooks (id, url, events, org_id, user_id, secret, status, disabled_reason, disabled_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'active', NULL, NULL, ?, ?)",
      [webhookID, dto.url, dto.events ? JSON.stringify(dto.events) : null, owner.orgID, owner.userID, secret, at, at],
    );
    return { webhookID, secret };
  }

  async getOne(webhookID: string, principal: Principal): Promise<WebhookDto> {
    const [item] = await this.withLastDelivery([await this.access.webhook(principal, webhookID)]);
    return item;
  }

  async list(query: ListWebhooksQueryDto, principal: Principal): Promise<Page<WebhookDto>> {
    if (query.orgID === undefined && query.userID === undefined) throw new MissingOneOfException(OWNERS);
    const where = new SqlWhere();
    if (query.orgID !== undefined) where.and('w.org_id = ?', query.orgID);
    if (query.userID !== undefined) where.and('w.user_id = ?', query.userID);
    const scope = this.access.listScope(principal, 'w');
    if (scope) where.and(scope);
    const { sql, params } = pagedSql(WEBHOOK_LIST, where, WEBHOOK_KEYS, query);
    const rows: WebhookRow[] = await this.dataSource.query(sql, params);
    const page = toPage(rows, query, (r) => [rawDate(r.createdAt), r.webhookID], (r) => r);
    return { ...page, items: await this.withLastDelivery(page.items) };
  }

  /** Deletes the endpoint with its deliveries and their attempts; a delivery being sent right now is not recorded. */
  async delete(dto: DeleteWebhookDto, principal: Principal): Promise<WebhookDeletedDto> {
    const webhook = await this.access.webhook(principal, dto.webhookID);
    await this.dataSource.query('DELETE FROM webhooks WHERE id = ?', [webhook.webhookID]);
    return { webhookID: webhook.webhookID, status: 'deleted' };
  }

  async deliveries(query: ListDeliveriesQueryDto, principal: Principal): Promise<Page<DeliveryDto>> {
    const webhook = await this.access.webhook(principal, query.webhookID);
    const where = new SqlWhere().and('d.webhook_id = ?', webhook.webhookID);
    const { sql, params } = pagedSql(DELIVERY_LIST, where, DELIVERY_KEYS, query);
    const rows: DeliveryRow[] = await this.dataSource.query(sql, params);
    const page = toPage(rows, query, (r) => [rawDate(r.createdAt), r.deliveryID], (r) => r);
    const attempts = new Map<string, AttemptRow[]>();
    for (let i = 0; i < page.items.length; i += IN_CHUNK) {
      const ids = page.items.slice(i, i + IN_CHUNK).map((d) => d.deliveryID);
      const found: AttemptRow[] = await this.dataSource.query(ATTEMPTS_OF_DELIVERIES + inList(ids.length) + ATTEMPTS_ORDER, ids);
      for (const a of found) attempts.set(a.deliveryID, [...(attempts.get(a.deliveryID) ?? []), a]);
    }
    return { ...page, items: page.items.map((d) => deliveryFromRow(d, attempts.get(d.deliveryID) ?? [])) };
  }

  /**
   * Queues a delivery again, due now, with the retry schedule from its start and the same webhook-id
   * (receivers that processed it already dedupe it). Not while an instance is sending it, nor to a
   * disabled endpoint (409).
   */
  async redeliver(dto: RedeliverDto, principal: Principal): Promise<RedeliveryDto> {
    const delivery = await this.access.delivery(principal, dto.deliveryID);
    if (delivery.webhookStatus !== 'active') throw new WebhookDisabledException();
    const now = sqlDate(new Date());
    // A claim whose lease has run out belongs to an instance that is gone: it may be taken over.
    const changed = await affectedRows(
      this.dataSource.manager,
      "UPDATE webhook_deliveries SET status = 'pending', retry_step = 0, next_attempt_at = ?, claim_token = NULL, updated_at = ? WHERE id = ? AND (claim_token IS NULL OR next_attempt_at <= ?)",
      [now, now, delivery.deliveryID, now],
    );
    if (changed === 0) throw new DeliveryInProgressException();
    this.outbox.notify();
    return { deliveryID: delivery.deliveryID, status: 'pending' };
  }

  /** Each endpoint with its most recent attempt (one query for the page). */
  private async withLastDelivery(rows: WebhookRow[]): Promise<WebhookDto[]> {
    const ids = rows.map((r) => r.lastAttemptID).filter((id): id is string => id !== null);
    const last = new Map<string, AttemptRow>();
    for (let i = 0; i < ids.length; i += IN_CHUNK) {
      const chunk = ids.slice(i, i + IN_CHUNK);
      const found: AttemptRow[] = await this.dataSource.query(LAST_ATTEMPTS + inList(chunk.length), chunk);
      for (const a of found) last.set(a.attemptID!, a);
    }
    return rows.map((r) => webhookFromRow(r, r.lastAttemptID === null ? undefined : last.get(r.lastAttemptID)));
  }
}
