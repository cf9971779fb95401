import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module';
import { WebhookOutboxModule } from './webhook-outbox.module';
import { WebhooksConfig, readWebhooksConfig } from './webhooks.config';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

const webhooksConfig = ConfigModule.forFeature(WebhooksConfig, readWebhooksConfig);

/** The /v1/webhooks API. The relay that sends deliveries is AppModule's (the HTTP service's) own provider. */
@Module({
  imports: [webhooksConfig, WebhookOutboxModule],
  controllers: [WebhooksController],
  providers: [WebhooksService],
  exports: [WebhookOutboxModule, webhooksConfig],
})
export class WebhooksModule {}
