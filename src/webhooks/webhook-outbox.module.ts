import { Module } from '@nestjs/common';
import { WebhookOutbox } from './webhook-outbox.service';

/** The outbox writer, for the modules whose changes cause events (invites, profiles) and for the relay. */
@Module({
  providers: [WebhookOutbox],
  exports: [WebhookOutbox],
})
export class WebhookOutboxModule {}
