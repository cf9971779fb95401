import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { InterviewsModule } from '../interviews/interviews.module';
import { ProductsModule } from '../products/products.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { WebhookOutboxModule } from '../webhooks/webhook-outbox.module';
import { InviteAnswerDigest } from './invite-answer-digest.entity';
import { InviteEmailDigest } from './invite-email-digest.entity';
import { InviteAudio } from './invite-audio.entity';
import { Invite } from './invite.entity';
import { InviteLifecycleService } from './invite-lifecycle.service';
import { InvitesController } from './invites.controller';
import { InvitesRepository } from './invites.repository';
import { InvitesService } from './invites.service';
import { InviteAudioRepository } from './invite-audio.repository';

@Module({
  imports: [TypeOrmModule.forFeature([Invite, InviteAudio, InviteAnswerDigest, InviteEmailDigest]), IdempotencyModule, InterviewsModule, ProductsModule, ProfilesModule, WebhookOutboxModule],
  controllers: [InvitesController],
  providers: [InvitesService, InviteLifecycleService, InvitesRepository, InviteAudioRepository],
  // The HTTP service's expiry sweeper (AppModule) reads the invites' settings too.
  exports: [InvitesService, InviteLifecycleService, InvitesRepository],
})
export class InvitesModule {}
