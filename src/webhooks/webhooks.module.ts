import { Module } from '@nestjs/common';
import { WebhookOutboxModule } from './webhook-outbox.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** The /v1/webhooks API. The relay that sends deliveries is AppModule's (the HTTP service's) own provider. */
@Module({
  imports: [WebhookOutboxModule],
  controllers: [WebhooksController],
  providers: [WebhooksService],
  exports: [WebhookOutboxModule],
})
export class WebhooksModule {}
