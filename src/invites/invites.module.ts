import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { WebhookOutboxModule } from '../webhooks/webhook-outbox.module';
import { InviteLifecycleService } from './invite-lifecycle.service';
import { InvitesController } from './invites.controller';
import { InvitesService } from './invites.service';

@Module({
  imports: [IdempotencyModule, ProfilesModule, WebhookOutboxModule],
  controllers: [InvitesController],
  providers: [InvitesService, InviteLifecycleService],
  exports: [InvitesService, InviteLifecycleService],
})
export class InvitesModule {}
