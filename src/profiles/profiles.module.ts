import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { WebhookOutboxModule } from '../webhooks/webhook-outbox.module';
import { ProfilesController } from './profiles.controller';
import { ProfilesRepository } from './profiles.repository';
import { ProfilesService } from './profiles.service';

@Module({
  imports: [ProductsModule, WebhookOutboxModule],
  controllers: [ProfilesController],
  providers: [ProfilesService, ProfilesRepository],
  exports: [ProfilesService, ProfilesRepository],
})
export class ProfilesModule {}
