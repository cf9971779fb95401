import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.entity';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhooksRepository } from './webhooks.repository';

/** The outbox writer, for the modules whose changes cause events (invites, profiles), and the webhooks' tables. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt])],
  providers: [WebhookOutbox, WebhooksRepository],
  exports: [WebhookOutbox, WebhooksRepository],
})
export class WebhookOutboxModule {}
