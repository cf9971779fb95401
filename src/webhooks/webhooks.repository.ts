import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, LessThanOrEqual, type DataSource, type EntityManager, type Repository, type SelectQueryBuilder } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { viewersOfSql } from '../access/access-rule';
import { KeysetList, SqlCondition, namedCondition } from '../common/keyset';
import { IN_CHUNK } from '../common/limits';
import { forUpdate } from '../database/column-types';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.entity';
import { DeliveryStatus, WebhookStatus } from './webhooks.limits';
import { transaction } from '../database/transaction';

/** What the API shows of an endpoint: never its secret. */
const ENDPOINT_FIELDS = ['webhookID', 'url', 'events', 'orgID', 'userID', 'status', 'disabledReason', 'disabledAt', 'createdAt'] as const satisfies readonly (keyof WebhookEndpoint)[];

/** An endpoint as the API shows it, with the id of its most recent attempt. */
export type EndpointView = Pick<WebhookEndpoint, (typeof ENDPOINT_FIELDS)[number]> & { lastAttemptID: string | null };

/** An active endpoint, as the outbox fans events out to it. */
export type FanOutEndpoint = Pick<WebhookEndpoint, 'webhookID' | 'orgID' | 'userID' | 'events'>;

/** What the API shows of a delivery. */
const DELIVERY_FIELDS = ['deliveryID', 'webhookID', 'type', 'payload', 'status', 'nextAttemptAt', 'claimToken', 'createdAt'] as const satisfies readonly (keyof WebhookDelivery)[];

export type DeliveryView = Pick<WebhookDelivery, (typeof DELIVERY_FIELDS)[number]>;

/** A delivery to write: its id, endpoint, event type and the exact body. */
export type NewDelivery = Pick<WebhookDelivery, 'deliveryID' | 'webhookID' | 'type' | 'payload'>;

/** What a claim needs to send: the body, the endpoint's URL, secret and status. */
export type ClaimedDelivery = Pick<WebhookDelivery, 'deliveryID' | 'webhookID' | 'payload' | 'retryStep'> & {
  claimToken: string;
  url: string;
  secret: string;
  webhookStatus: WebhookStatus;
};

/** Rows per INSERT of deliveries: well under SQLite's variable limit. */
const DELIVERY_INSERT_CHUNK = 500;

/** The webhooks, webhook_deliveries (the outbox) and webhook_attempts tables. */
@Injectable()
export class WebhooksRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @InjectRepository(WebhookAttempt) private readonly attempts: Repository<WebhookAttempt>,
  ) {}

  // --- endpoints --------------------------------------------------------------------------------

  async insertEndpoint(e: Pick<WebhookEndpoint, 'webhookID' | 'url' | 'events' | 'orgID' | 'userID' | 'secret'>, now: Date): Promise<void> {
    await this.endpoints.insert({ ...e, status: 'active', disabledReason: null, disabledAt: null, createdAt: now, updatedAt: now });
  }

  async findEndpoint(webhookID: string): Promise<EndpointView | undefined> {
    const [found] = await readEndpoints(this.endpointsQuery().where('w.webhookID = :webhookID', { webhookID }));
    return found;
  }

  listEndpoints(filter: { orgID?: string; userID?: string }, scope: SqlCondition | undefined): KeysetList<EndpointView, WebhookEndpoint> {
    return new KeysetList<EndpointView, WebhookEndpoint>({
      query: () => {
        const query = this.endpointsQuery();
        if (filter.orgID !== undefined) query.andWhere('w.orgID = :orgID', { orgID: filter.orgID });
        if (filter.userID !== undefined) query.andWhere('w.userID = :userID', { userID: filter.userID });
        if (scope) query.andWhere(...namedCondition(scope, 'scope'));
        return query;
      },
      keys: { created: 'w.createdAt', id: 'w.webhookID' },
      read: readEndpoints,
      keyOf: (endpoint) => ({ createdAt: endpoint.createdAt, id: endpoint.webhookID }),
    });
  }

  /** Deletes the endpoint; its deliveries and their attempts go with it (foreign keys ON DELETE CASCADE). */
  async deleteEndpoint(webhookID: string): Promise<void> {
    await this.endpoints.delete({ webhookID });
  }

  /**
   * The active endpoints whose owner can see at least one of these products: who receives an event
   * about them (an endpoint sees as a token with its orgID and userID would, never as an admin).
   */
  async endpointsSeeing(db: EntityManager, products: readonly Owned[]): Promise<FanOutEndpoint[]> {
    const scope = viewersOfSql(products, 'w');
    if (scope.params.length === 0) return [];
    return db
      .getRepository(WebhookEndpoint)
      .createQueryBuilder('w')
      .select(['w.webhookID', 'w.orgID', 'w.userID', 'w.events'])
      .where('w.status = :active', { active: 'active' })
      .andWhere(...namedCondition(scope, 'viewer'))
      .getMany();
  }

  /** 410 Gone: the endpoint is disabled and its pending deliveries fail. */
  async disableEndpoint(db: EntityManager, webhookID: string, reason: string, now: Date): Promise<void> {
    await db.getRepository(WebhookEndpoint).update({ webhookID, status: 'active' }, { status: 'disabled', disabledReason: reason, disabledAt: now, updatedAt: now });
    await db.getRepository(WebhookDelivery).update({ webhookID, status: 'pending' }, { status: 'failed', nextAttemptAt: null, claimToken: null, updatedAt: now });
  }

  // --- deliveries (the outbox) ---------------------------------------------------------------------

  /** New pending deliveries, due at `at`, in the caller's transaction. */
  async insertDeliveries(db: EntityManager, deliveries: NewDelivery[], at: Date): Promise<void> {
    for (let i = 0; i < deliveries.length; i += DELIVERY_INSERT_CHUNK) {
      const chunk = deliveries.slice(i, i + DELIVERY_INSERT_CHUNK).map((d) => ({ ...d, status: 'pending' as const, retryStep: 0, claimToken: null, nextAttemptAt: at, createdAt: at, updatedAt: at }));
      // Not read back: nothing is generated, and MySQL (which returns nothing) would be asked for every row's defaults.
      await db.createQueryBuilder().insert().into(WebhookDelivery).values(chunk).updateEntity(false).execute();
    }
  }

  /** The delivery with its endpoint's owners (who may see it) and status. */
  async findDelivery(deliveryID: string): Promise<(DeliveryView & { owner: Owned; webhookStatus: WebhookStatus }) | undefined> {
    const found = await this.deliveries
      .createQueryBuilder('d')
      .innerJoin('d.webhook', 'w')
      .select([...DELIVERY_FIELDS.map((f) => `d.${f}`), 'w.webhookID', 'w.orgID', 'w.userID', 'w.status'])
      .where('d.deliveryID = :deliveryID', { deliveryID })
      .getOne();
    if (!found) return undefined;
    const { webhook, ...delivery } = found;
    return { ...delivery, owner: { orgID: webhook!.orgID, userID: webhook!.userID }, webhookStatus: webhook!.status };
  }

  listDeliveries(webhookID: string): KeysetList<DeliveryView> {
    return new KeysetList<DeliveryView>({
      query: () =>
        this.deliveries
          .createQueryBuilder('d')
          .select(DELIVERY_FIELDS.map((f) => `d.${f}`))
          .where('d.webhookID = :webhookID', { webhookID }),
      keys: { created: 'd.createdAt', id: 'd.deliveryID' },
      keyOf: (delivery) => ({ createdAt: delivery.createdAt, id: delivery.deliveryID }),
    });
  }

  /**
   * Queues a delivery again, due now, with the retry schedule from its start; a claim whose lease has
   * run out belongs to an instance that is gone and may be taken over. False while one is being sent.
   */
  async requeue(deliveryID: string, now: Date): Promise<boolean> {
    const unclaimed = [
      { deliveryID, claimToken: IsNull() },
      { deliveryID, nextAttemptAt: LessThanOrEqual(now) },
    ];
    const { affected } = await this.deliveries.update(unclaimed, { status: 'pending', retryStep: 0, nextAttemptAt: now, claimToken: null, updatedAt: now });
    return (affected ?? 0) > 0;
  }

  /** The deliveries due now and not being sent (a claimed one is due at its lease's end), and the oldest one's due time. */
  async dueBacklog(now: Date): Promise<{ count: number; oldestDue: Date | null }> {
    const due = { status: 'pending' as const, nextAttemptAt: LessThanOrEqual(now) };
    // Both read idx_webhook_deliveries_due alone.
    const count = await this.deliveries.count({ where: due });
    const oldest = count === 0 ? null : await this.deliveries.findOne({ select: { deliveryID: true, nextAttemptAt: true }, where: due, order: { nextAttemptAt: 'ASC' } });
    return { count, oldestDue: oldest?.nextAttemptAt ?? null };
  }

  /**
   * Up to `limit` due deliveries, claimed with `token` until `leaseEnds`: a transaction takes due rows
   * (FOR UPDATE SKIP LOCKED on MySQL/MariaDB, so instances pass over each other's; the embedded
   * database has one process), marks them with the token and moves their due time to the lease's end.
   */
  async claim(token: string, limit: number, now: Date, leaseEnds: Date): Promise<ClaimedDelivery[]> {
    return transaction(this.dataSource, async (db) => {
      const deliveries = db.getRepository(WebhookDelivery);
      const dueQuery = deliveries
        .createQueryBuilder('d')
        .select('d.deliveryID')
        .where('d.status = :pending AND d.nextAttemptAt <= :now', { pending: 'pending', now })
        .orderBy('d.nextAttemptAt')
        .limit(limit);
      const due = await forUpdate(dueQuery, { skipLocked: true }).getMany();
      if (due.length === 0) return [];
      await deliveries.update({ deliveryID: In(due.map((d) => d.deliveryID)) }, { claimToken: token, nextAttemptAt: leaseEnds, updatedAt: now });
      const claimed = await deliveries
        .createQueryBuilder('d')
        .innerJoin('d.webhook', 'w')
        .select(['d.deliveryID', 'd.webhookID', 'd.payload', 'd.retryStep', 'w.webhookID', 'w.url', 'w.secret', 'w.status'])
        .where('d.claimToken = :token', { token })
        .getMany();
      return claimed.map(({ webhook, ...d }) => ({ ...d, claimToken: token, url: webhook!.url, secret: webhook!.secret, webhookStatus: webhook!.status }));
    });
  }

  /**
   * Settles a claim: the delivery's new state (and `claim_token` cleared), only while the claim still
   * holds. False when it no longer does (its lease ran out, or the endpoint was deleted).
   */
  async settle(
    db: EntityManager,
    claim: Pick<ClaimedDelivery, 'deliveryID' | 'claimToken'>,
    next: { status?: DeliveryStatus; retryStep?: number; nextAttemptAt: Date | null },
    now: Date,
  ): Promise<boolean> {
    const { affected } = await db.getRepository(WebhookDelivery).update({ deliveryID: claim.deliveryID, claimToken: claim.claimToken }, { ...next, claimToken: null, updatedAt: now });
    return (affected ?? 0) > 0;
  }

  // --- attempts -------------------------------------------------------------------------------------

  async insertAttempt(db: EntityManager, attempt: WebhookAttempt): Promise<void> {
    await db.getRepository(WebhookAttempt).insert(attempt);
  }

  /** Attempts by id, with their delivery's event type: the endpoints' last deliveries. */
  async attemptsById(attemptIDs: string[]): Promise<(WebhookAttempt & { delivery: Pick<WebhookDelivery, 'type'> })[]> {
    const out: (WebhookAttempt & { delivery: Pick<WebhookDelivery, 'type'> })[] = [];
    for (let i = 0; i < attemptIDs.length; i += IN_CHUNK) {
      const found = await this.attempts.find({
        relations: { delivery: true },
        select: { attemptID: true, deliveryID: true, attemptedAt: true, statusCode: true, error: true, durationMs: true, delivery: { deliveryID: true, type: true } },
        where: { attemptID: In(attemptIDs.slice(i, i + IN_CHUNK)) },
      });
      out.push(...(found as (WebhookAttempt & { delivery: WebhookDelivery })[]));
    }
    return out;
  }

  /** The attempts of some deliveries, in order. */
  async attemptsOf(deliveryIDs: string[]): Promise<WebhookAttempt[]> {
    const out: WebhookAttempt[] = [];
    for (let i = 0; i < deliveryIDs.length; i += IN_CHUNK) {
      out.push(
        ...(await this.attempts.find({
          select: { attemptID: true, deliveryID: true, attemptedAt: true, statusCode: true, error: true, durationMs: true },
          where: { deliveryID: In(deliveryIDs.slice(i, i + IN_CHUNK)) },
          order: { deliveryID: 'ASC', attemptedAt: 'ASC', attemptID: 'ASC' },
        })),
      );
    }
    return out;
  }

  /** Endpoints without their secret, each with the id of its last attempt (one index lookup away: idx_webhook_attempts_webhook). */
  private endpointsQuery() {
    return this.endpoints
      .createQueryBuilder('w')
      .select(ENDPOINT_FIELDS.map((f) => `w.${f}`))
      .addSelect(
        (last) => last.select('a.attemptID').from(WebhookAttempt, 'a').where('a.webhookID = w.webhookID').orderBy('a.attemptedAt', 'DESC').addOrderBy('a.attemptID', 'DESC').limit(1),
        'lastAttemptID',
      );
  }
}

/** The endpoints, each with its last attempt's id: a value the entity has no column for, read beside it. */
async function readEndpoints(query: SelectQueryBuilder<WebhookEndpoint>): Promise<EndpointView[]> {
  const { entities, raw } = await query.getRawAndEntities<{ lastAttemptID: string | null }>();
  return entities.map((endpoint, i) => ({ ...endpoint, lastAttemptID: raw[i].lastAttemptID }));
}
