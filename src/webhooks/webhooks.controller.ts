import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { Paginated } from '../common/paginated';
import { CreateWebhookDto, DeleteWebhookDto, GetWebhookQueryDto, ListDeliveriesQueryDto, ListWebhooksQueryDto, RedeliverDto } from './dto/webhook-input.dto';
import { DeliveryDto, RedeliveryDto, WebhookCreatedDto, WebhookDeletedDto, WebhookDto } from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';
import { WEBHOOK_EVENTS } from './webhooks.limits';

const EXAMPLE_WEBHOOK = '019a9b10-2c3d-7e4f-8a5b-6c7d8e9f0a1b';
const NOT_FOUND = errorCase(404, `webhook "${EXAMPLE_WEBHOOK}" not found`);

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('addOne')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description:
      `The endpoint receives the events (${WEBHOOK_EVENTS.join(', ')}) of the records its owner ` +
      '(orgID and/or userID) can see, as a token with that orgID/userID would, signed per Standard Webhooks. The answer carries the signing secret, ' +
      'shown only this once. A scoped token may only register endpoints it can see (its own orgID or userID), else 403. The url must be https and ' +
      'its host must resolve only to public addresses (not loopback, private, link-local, unique-local or cloud metadata), else 400.',
  })
  @ApiBody({
    type: CreateWebhookDto,
    // Only what an endpoint needs: Swagger UI's "Try it out" starts from the first one.
    examples: {
      organization: { summary: "Every event of an organization's records", value: { url: 'https://hooks.acme.example/irs', orgID: 'org_acme' } },
      someEvents: {
        summary: 'Only completed interviews and new profiles',
        value: { url: 'https://hooks.acme.example/irs', orgID: 'org_acme', events: ['invite.completed', 'profile.created'] },
      },
    },
  })
  @ApiResult(WebhookCreatedDto, { status: 201, description: "The new webhook's identifier and its signing secret (shown only this once)" })
  @ApiErrors(errorCase(400, 'url is refused: the host resolves to a private address; webhooks go to public addresses only'), errorCase(403, 'the webhook would not be visible to this token afterwards; a token may only write within its own organization or user'), 413, 415)
  addOne(@Body() dto: CreateWebhookDto, @CurrentPrincipal() principal: Principal) {
    return this.webhooks.create(dto, principal);
  }

  @Get('getOne')
  @ApiOperation({
    summary: 'Return one webhook',
    description: 'Every field but the secret, whether it is active or disabled (and why), and its last delivery attempt. 404 when unknown or not visible.',
  })
  @ApiResult(WebhookDto, { description: 'The webhook' })
  @ApiErrors(400, NOT_FOUND)
  getOne(@Query() query: GetWebhookQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.webhooks.getOne(query.webhookID, principal);
  }

  @Get('getList')
  @ApiOperation({
    summary: 'Return webhooks of an organization and/or a user',
    description:
      'At least one filter is required; both combine with AND. Only webhooks visible to the caller are listed, oldest first (ties by webhookID), ' +
      'each with its status (active or disabled) and last delivery attempt.',
  })
  @Paginated(WebhookDto, 'The matching webhooks, oldest first')
  @ApiErrors(400)
  getList(@Query() query: ListWebhooksQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.webhooks.list(query, principal);
  }

  @Post('deleteOne')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Delete a webhook',
    description: 'Nothing more is sent to it; its deliveries and their history are deleted with it. 404 when unknown or not visible.',
  })
  @ApiBody({ type: DeleteWebhookDto, examples: { delete: { summary: 'Delete a webhook', value: { webhookID: EXAMPLE_WEBHOOK } } } })
  @ApiResult(WebhookDeletedDto, { description: 'The webhook was deleted' })
  @ApiErrors(400, NOT_FOUND, 413, 415)
  deleteOne(@Body() dto: DeleteWebhookDto, @CurrentPrincipal() principal: Principal) {
    return this.webhooks.delete(dto, principal);
  }

  @Get('getDeliveries')
  @ApiOperation({
    summary: "Return a webhook's deliveries",
    description:
      'One delivery per event sent to this endpoint, oldest first (ties by deliveryID), each with its status (pending, delivered, failed), ' +
      'every attempt (time, status code or error, duration) and the payload as sent. 404 when the webhook is unknown or not visible.',
  })
  @Paginated(DeliveryDto, "The webhook's deliveries, oldest first")
  @ApiErrors(400, NOT_FOUND)
  getDeliveries(@Query() query: ListDeliveriesQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.webhooks.deliveries(query, principal);
  }

  @Post('redeliver')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a delivery again',
    description:
      'Queues the delivery again, due now, with the retry schedule from its start; the body and webhook-id stay the same (receivers that processed it ' +
      'already dedupe it). 409 while an instance is sending it, or when the webhook is disabled. 404 when unknown or not visible.',
  })
  @ApiBody({ type: RedeliverDto, examples: { redeliver: { summary: 'Send a delivery again', value: { deliveryID: '019a9b12-0000-7000-8000-000000000001' } } } })
  @ApiResult(RedeliveryDto, { description: 'The delivery is queued again' })
  @ApiErrors(400, errorCase(404, 'delivery "019a9b12-0000-7000-8000-000000000001" not found'), errorCase(409, 'this delivery is being sent right now; look at its attempts in a moment'), 413, 415)
  redeliver(@Body() dto: RedeliverDto, @CurrentPrincipal() principal: Principal) {
    return this.webhooks.redeliver(dto, principal);
  }
}
