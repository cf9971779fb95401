import type { ConfigType } from '@nestjs/config';
import { Injectable, Inject } from '@nestjs/common';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { MissingOneOfException } from '../common/errors';
import { uuidv7 } from '../common/ids';
import { ListAnswer, answerList } from '../common/keyset';
import { CreateWebhookDto, DeleteWebhookDto, ListDeliveriesQueryDto, ListWebhooksQueryDto, RedeliverDto } from './dto/webhook-input.dto';
import { AttemptDto, DeliveryDto, LastDeliveryDto, RedeliveryDto, WebhookCreatedDto, WebhookDeletedDto, WebhookDto } from './dto/webhook.dto';
import { WebhookOutbox } from './webhook-outbox.service';
import { newWebhookSecret } from './webhook-signing';
import { checkTarget } from './webhook-targets';
import { webhooksConfig } from './webhooks.config';
import { DeliveryInProgressException, DeliveryNotFoundException, WebhookDisabledException, WebhookNotFoundException, WebhookTargetRefusedException } from './webhooks.errors';
import { WEBHOOK_EVENTS, WebhookEventType } from './webhooks.limits';
import type { WebhookAttempt } from './webhook.entity';
import { DeliveryView, EndpointView, WebhooksRepository } from './webhooks.repository';

type LastAttempt = Awaited<ReturnType<WebhooksRepository['attemptsById']>>[number];

const OWNERS = ['orgID', 'userID'];

/** A stored events column as the API shows it: every type when null. */
const eventsOf = (stored: WebhookEventType[] | null): WebhookEventType[] => stored ?? [...WEBHOOK_EVENTS];

function attemptDtoOf(a: WebhookAttempt): AttemptDto {
  return { attempted_on: a.attemptedAt.toISOString(), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs };
}

function webhookDtoOf(w: EndpointView, last: LastAttempt | undefined): WebhookDto {
  const lastDelivery: LastDeliveryDto | null = last ? { deliveryID: last.deliveryID, type: last.delivery.type, ...attemptDtoOf(last) } : null;
  return {
    webhookID: w.webhookID,
    url: w.url,
    events: eventsOf(w.events),
    orgID: w.orgID,
    userID: w.userID,
    status: w.status,
    disabledReason: w.disabledReason,
    disabled_on: w.disabledAt === null ? null : w.disabledAt.toISOString(),
    created_on: w.createdAt.toISOString(),
    lastDelivery,
  };
}

function deliveryDtoOf(d: DeliveryView, attempts: WebhookAttempt[]): DeliveryDto {
  return {
    deliveryID: d.deliveryID,
    webhookID: d.webhookID,
    type: d.type,
    status: d.status,
    created_on: d.createdAt.toISOString(),
    // While a claim is out the row holds the lease's end, which is no one's business but the relay's.
    next_attempt_on: d.status === 'pending' && d.claimToken === null && d.nextAttemptAt !== null ? d.nextAttemptAt.toISOString() : null,
    attempts: attempts.map(attemptDtoOf),
    // The body as it was sent and signed, stored as its exact text.
    payload: JSON.parse(d.payload) as DeliveryDto['payload'],
  };
}

/** The /v1/webhooks API: endpoints with the owner rules of products, their deliveries, and redelivery. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly access: AccessService,
    private readonly outbox: WebhookOutbox,
    @Inject(webhooksConfig.KEY) private readonly config: ConfigType<typeof webhooksConfig>,
  ) {}

  async create(dto: CreateWebhookDto, principal: Principal): Promise<WebhookCreatedDto> {
    const owner = { orgID: dto.orgID ?? null, userID: dto.userID ?? null };
    if (owner.orgID === null && owner.userID === null) throw new MissingOneOfException(OWNERS);
    this.access.assertWritable(principal, owner, 'the webhook');
    const refused = await checkTarget(new URL(dto.url), this.config.allowLocal);
    if (refused) throw new WebhookTargetRefusedException(refused);
    const webhookID = uuidv7();
    const secret = newWebhookSecret();
    await this.webhooks.insertEndpoint({ webhookID, url: dto.url, events: dto.events ?? null, ...owner, secret }, new Date());
    return { webhookID, secret };
  }

  async getOne(webhookID: string, principal: Principal): Promise<WebhookDto> {
    const [item] = await this.withLastDelivery([await this.requireVisible(principal, webhookID)]);
    return item;
  }

  async list(query: ListWebhooksQueryDto, principal: Principal): Promise<ListAnswer<WebhookDto>> {
    if (query.orgID === undefined && query.userID === undefined) throw new MissingOneOfException(OWNERS);
    const list = this.webhooks.listEndpoints({ orgID: query.orgID, userID: query.userID }, this.access.listScope(principal, 'w'));
    return answerList(query, list, (rows) => this.withLastDelivery(rows));
  }

  /** Deletes the endpoint with its deliveries and their attempts; a delivery being sent right now is not recorded. */
  async delete(dto: DeleteWebhookDto, principal: Principal): Promise<WebhookDeletedDto> {
    const webhook = await this.requireVisible(principal, dto.webhookID);
    await this.webhooks.deleteEndpoint(webhook.webhookID);
    return { webhookID: webhook.webhookID, status: 'deleted' };
  }

  async deliveries(query: ListDeliveriesQueryDto, principal: Principal): Promise<ListAnswer<DeliveryDto>> {
    const webhook = await this.requireVisible(principal, query.webhookID);
    return answerList(query, this.webhooks.listDeliveries(webhook.webhookID), async (rows) => {
      const attempts = new Map<string, WebhookAttempt[]>();
      for (const a of await this.webhooks.attemptsOf(rows.map((d) => d.deliveryID))) attempts.set(a.deliveryID, [...(attempts.get(a.deliveryID) ?? []), a]);
      return rows.map((d) => deliveryDtoOf(d, attempts.get(d.deliveryID) ?? []));
    });
  }

  /**
   * Queues a delivery again, due now, with the retry schedule from its start and the same webhook-id
   * (receivers that processed it already dedupe it). Not while an instance is sending it, nor to a
   * disabled endpoint (409).
   */
  async redeliver(dto: RedeliverDto, principal: Principal): Promise<RedeliveryDto> {
    const delivery = this.access.visible(principal, await this.webhooks.findDelivery(dto.deliveryID), (d) => d.owner, () => new DeliveryNotFoundException(dto.deliveryID));
    if (delivery.webhookStatus !== 'active') throw new WebhookDisabledException();
    if (!(await this.webhooks.requeue(delivery.deliveryID, new Date()))) throw new DeliveryInProgressException();
    this.outbox.notify();
    return { deliveryID: delivery.deliveryID, status: 'pending' };
  }

  /** The endpoint when the caller may see it: owned like a product, by its orgID and userID. */
  private async requireVisible(principal: Principal, webhookID: string): Promise<EndpointView> {
    return this.access.visible(principal, await this.webhooks.findEndpoint(webhookID), (w) => w, () => new WebhookNotFoundException(webhookID));
  }

  /** Each endpoint with its most recent attempt (one query for the page). */
  private async withLastDelivery(rows: EndpointView[]): Promise<WebhookDto[]> {
    const ids = rows.map((r) => r.lastAttemptID).filter((id): id is string => id !== null);
    const last = new Map((await this.webhooks.attemptsById(ids)).map((a) => [a.attemptID, a]));
    return rows.map((r) => webhookDtoOf(r, r.lastAttemptID === null ? undefined : last.get(r.lastAttemptID)));
  }
}
