import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional } from 'class-validator';
import { COMMON_LIMITS } from '../../common/limits';
import { PageQueryDto } from '../../common/page-query.dto';
import { OptionalId, OptionalOwnerId, RequiredId, RequiredUrl } from '../../common/validation';
import { WEBHOOK_EVENTS, WebhookEventType } from '../webhooks.limits';

const EVENTS_RULE = `events must list 1 to ${WEBHOOK_EVENTS.length} different event types of ${WEBHOOK_EVENTS.join(', ')} (leave it out for all)`;

export class CreateWebhookDto {
  @RequiredUrl(
    'Where to POST the events: an absolute https URL whose host resolves to public addresses only (not loopback, private, link-local or cloud metadata).',
    'https://hooks.acme.example/irs',
  )
  url: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
    nullable: true,
    minItems: 1,
    maxItems: WEBHOOK_EVENTS.length,
    uniqueItems: true,
    description: 'The event types to receive. Left out (or null): all of them.',
    example: ['invite.completed', 'profile.created'],
  })
  @IsOptional()
  @IsIn(WEBHOOK_EVENTS, { each: true, message: EVENTS_RULE })
  @ArrayUnique({ message: EVENTS_RULE })
  @ArrayMaxSize(WEBHOOK_EVENTS.length, { message: EVENTS_RULE })
  @ArrayMinSize(1, { message: EVENTS_RULE })
  // Listed last because class-validator runs decorators bottom-up and stops at the first error.
  @IsArray({ message: EVENTS_RULE })
  events?: WebhookEventType[] | null;

  @OptionalOwnerId('Owning organization: the endpoint receives the events of its products. At least one of orgID and userID is required.', 'org_acme')
  orgID?: string | null;

  @OptionalOwnerId('Owning user: the endpoint receives the events of their products. At least one of orgID and userID is required.', 'user_42')
  userID?: string | null;
}

export class GetWebhookQueryDto {
  @RequiredId('The webhook to return. A webhookID from webhooks/addOne or webhooks/getList.')
  webhookID: string;
}

export class ListWebhooksQueryDto extends PageQueryDto {
  @OptionalId('Return webhooks of this organization. At least one of orgID and userID is required; both combine with AND.', COMMON_LIMITS.ownerId)
  orgID?: string;

  @OptionalId('Return webhooks of this user. At least one of orgID and userID is required; both combine with AND.', COMMON_LIMITS.ownerId)
  userID?: string;
}

export class DeleteWebhookDto {
  @RequiredId('The webhook to delete, with its deliveries. A webhookID from webhooks/addOne or webhooks/getList.')
  webhookID: string;
}

export class ListDeliveriesQueryDto extends PageQueryDto {
  @RequiredId('Return the deliveries of this webhook (404 when unknown or not visible). A webhookID from webhooks/addOne or webhooks/getList.')
  webhookID: string;
}

export class RedeliverDto {
  @RequiredId('The delivery to send again. A deliveryID from webhooks/getDeliveries.')
  deliveryID: string;
}
