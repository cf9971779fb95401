import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Owned } from '../access/access-rule';
import { uuidv7 } from '../common/ids';
import { IN_CHUNK } from '../common/limits';
import { rawDate, sqlDate } from '../database/column-types';
import type { InviteEventDataDto, ProfileEventDataDto } from './dto/webhook.dto';
import { WebhookEventType } from './webhooks.limits';
import {
  DELIVERY_INSERT_CHUNK,
  EndpointRow,
  INVITE_EVENT_ROWS,
  InviteEventRow,
  PROFILE_EVENT_PRODUCTS,
  deliveryInsertSql,
  eventsOf,
} from './webhooks.sql';


type OwnedProduct = Owned & { productID: string };

/** An event before fan-out: its products decide which endpoints get it; `data` is written per endpoint. */
interface OutboxEvent {
  type: WebhookEventType;
  products: OwnedProduct[];
  data: (visibleProductIDs: string[]) => InviteEventDataDto | ProfileEventDataDto;
}

/** The invite statuses an event announces. */
export type InviteEventStatus = 'started' | 'completed' | 'expired';

/**
 * Writes webhook events to the outbox (webhook_deliveries) inside the caller's transaction, so an event
 * exists exactly when the change that caused it is committed. Fan-out happens here, at write time: one
 * delivery per active endpoint whose owner can see the record (AccessService decides), each with the
 * payload that endpoint may see. Once such a transaction commits, the relay of this process is told
 * (onWritten), so a new event does not wait for the next poll.
 */
@Injectable()
export class WebhookOutbox implements EntitySubscriberInterface {
  private readonly listeners = new Set<() => void>();
  /** Transactions that wrote deliveries and have not committed yet. */
  private readonly pending = new WeakSet<QueryRunner>();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly access: AccessService,
  ) {
    // TypeORM tells its subscribers about every commit; this one listens for the commits that wrote deliveries.
    dataSource.subscribers.push(this);
  }

  /** Called after each commit that wrote deliveries (and by redeliver). Returns the unsubscribe function. */
  onWritten(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // On SQLite nested transactions share one runner: only the outermost commit makes the rows visible.
    if (!event.queryRunner.isTransactionActive && this.pending.delete(event.queryRunner)) this.notify();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
  }

  /**
   * invite.started, invite.completed or invite.expired for each invite the caller moved to `status` in
   * this transaction: the event says the invite as it is now. Returns the deliveries written.
   */
  async invitesChanged(db: EntityManager, linkIDs: readonly string[], status: InviteEventStatus, at: Date): Promise<number> {
    const events: OutboxEvent[] = [];
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      const ids = linkIDs.slice(i, i + IN_CHUNK);
      const rows: InviteEventRow[] = await db.query(`${INVITE_EVENT_ROWS}(${ids.map(() => '?').join(', ')})`, ids);
      for (const r of rows) {
        if (r.status !== status) continue;
        const data: InviteEventDataDto = {
          linkID: r.linkID,
          interviewID: r.interviewID,
          productID: r.productID,
          orgID: r.orgID,
          status: r.status,
          completed_on: r.completedOn === null ? null : rawDate(r.completedOn).toISOString(),
        };
        events.push({ type: `invite.${status}`, products: [{ productID: r.productID, orgID: r.ownerOrgID, userID: r.ownerUserID }], data: () => data });
      }
    }
    return this.fanOut(db, events, at);
  }

  /** profile.created or profile.updated, after the caller wrote the profile and its products in this transaction. */
  async profileChanged(db: EntityManager, profileID: string, type: 'profile.created' | 'profile.updated', at: Date): Promise<number> {
    const products: OwnedProduct[] = await db.query(PROFILE_EVENT_PRODUCTS, [profileID]);
    return this.fanOut(db, [{ type, products, data: (productIDs) => ({ profileID, productIDs }) }], at);
  }

  private async fanOut(db: EntityManager, events: OutboxEvent[], at: Date): Promise<number> {
    if (events.length === 0) return 0;
    const endpoints = await this.access.endpointsSeeing(
      events.flatMap((e) => e.products),
      db,
    );
    if (endpoints.length === 0) return 0;
    const wanted = new Map<EndpointRow, Set<WebhookEventType>>(endpoints.map((e) => [e, new Set(eventsOf(e.events))]));
    const timestamp = at.toISOString();
    const when = sqlDate(at);
    const rows: unknown[][] = [];
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (!wanted.get(endpoint)!.has(event.type)) continue;
        const visible = event.products.filter((p) => this.access.endpointSees(endpoint, p)).map((p) => p.productID);
        if (visible.length === 0) continue;
        const payload = JSON.stringify({ type: event.type, timestamp, data: event.data(visible) });
        rows.push([uuidv7(at.getTime()), endpoint.webhookID, event.type, payload, when, when, when]);
      }
    }
    for (let i = 0; i < rows.length; i += DELIVERY_INSERT_CHUNK) {
      const chunk = rows.slice(i, i + DELIVERY_INSERT_CHUNK);
      await db.query(deliveryInsertSql(chunk.length), chunk.flat());
    }
    if (rows.length > 0) {
      if (db.queryRunner?.isTransactionActive) this.pending.add(db.queryRunner);
      else this.notify();
    }
    return rows.length;
  }
}
