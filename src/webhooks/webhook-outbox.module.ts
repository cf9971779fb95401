import { Module } from '@nestjs/common';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhooksRepository } from './webhooks.repository';

/** The outbox writer, for the modules whose changes cause events (invites, profiles), and the webhooks' tables. */
@Module({
  providers: [WebhookOutbox, WebhooksRepository],
  exports: [WebhookOutbox, WebhooksRepository],
})
export class WebhookOutboxModule {}
