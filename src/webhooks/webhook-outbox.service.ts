import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { Owned, canSee, endpointViewer } from '../access/access-rule';
import { uuidv7 } from '../common/ids';
import type { ErasureEventDataDto, InviteEventDataDto, ProfileEventDataDto, ReportEventDataDto } from './dto/webhook.dto';
import { WebhookEventType } from './webhooks.limits';
import { FanOutEndpoint, NewDelivery, WebhooksRepository } from './webhooks.repository';
import { outsideCaller } from '../common/background';

/** A product an event is about, with the owners that decide which endpoints may hear of it. */
export type OwnedProduct = Owned & { productID: string };

/**
 * An event as the module that causes it describes it: its products decide which endpoints get it, and
 * `data` is written per endpoint with the products that endpoint may see.
 */
export interface OutboxEvent {
  type: WebhookEventType;
  products: OwnedProduct[];
  data: (visibleProductIDs: string[]) => InviteEventDataDto | ProfileEventDataDto | ReportEventDataDto | ErasureEventDataDto;
}

/**
 * Writes webhook events to the outbox (webhook_deliveries) inside the caller's transaction, so an event
 * exists exactly when the change that caused it is committed. Fan-out happens here, at write time: one
 * delivery per active endpoint whose owner can see the record (the visibility rule of access-rule.ts,
 * read as an endpoint with its orgID and userID, never as an admin), each with the payload that endpoint
 * may see. Once such a transaction commits, the relay of this process is told (onWritten), so a new
 * event does not wait for the next poll.
 */
@Injectable()
export class WebhookOutbox implements EntitySubscriberInterface {
  private readonly listeners = new Set<() => void>();
  /** Transactions that wrote deliveries and have not committed yet. */
  private readonly pending = new WeakSet<QueryRunner>();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
  ) {
    // TypeORM tells its subscribers about every commit; this one listens for the commits that wrote deliveries.
    dataSource.subscribers.push(this);
  }

  /** Called after each commit that wrote deliveries (and by redeliver). Returns the unsubscribe function. */
  onWritten(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells the listeners, once the caller is done: a commit's subscriber runs inside the committing
   * transaction's work, where nothing new may start.
   */
  notify(): void {
    setImmediate(() => outsideCaller(() => {
      for (const listener of this.listeners) listener();
    }));
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // On SQLite nested transactions share one runner: only the outermost commit makes the rows visible.
    if (!event.queryRunner.isTransactionActive && this.pending.delete(event.queryRunner)) this.notify();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
  }

  /** The events' deliveries, in the caller's transaction. Returns how many were written. */
  async write(db: EntityManager, events: OutboxEvent[], at: Date): Promise<number> {
    if (events.length === 0) return 0;
    const endpoints = await this.webhooks.endpointsSeeing(
      db,
      events.flatMap((e) => e.products),
    );
    if (endpoints.length === 0) return 0;
    const wanted = new Map<FanOutEndpoint, Set<string>>(endpoints.map((e) => [e, new Set<string>(e.events ?? [])]));
    const timestamp = at.toISOString();
    const rows: NewDelivery[] = [];
    for (const event of events) {
      for (const endpoint of endpoints) {
        const types = wanted.get(endpoint)!;
        if (endpoint.events !== null && !types.has(event.type)) continue;
        const visible = event.products.filter((p) => canSee(endpointViewer(endpoint), p)).map((p) => p.productID);
        if (visible.length === 0) continue;
        rows.push({ deliveryID: uuidv7(), webhookID: endpoint.webhookID, type: event.type, payload: JSON.stringify({ type: event.type, timestamp, data: event.data(visible) }) });
      }
    }
    if (rows.length === 0) return 0;
    await this.webhooks.insertDeliveries(db, rows, at);
    if (db.queryRunner?.isTransactionActive) this.pending.add(db.queryRunner);
    else this.notify();
    return rows.length;
  }
}
