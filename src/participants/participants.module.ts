import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProfilesModule } from '../profiles/profiles.module';
import { ReportsModule } from '../reports/reports.module';
import { WebhookOutboxModule } from '../webhooks/webhook-outbox.module';
import { Erasure } from './erasure.entity';
import { ErasureService } from './erasure.service';
import { ParticipantsController } from './participants.controller';
import { ParticipantsRepository } from './participants.repository';
import { ParticipantsService } from './participants.service';

/** Interviewees' data rights: erasure, its audit, export, and the retention sweep that erases by age. */
@Module({
  imports: [TypeOrmModule.forFeature([Erasure]), ProfilesModule, ReportsModule, WebhookOutboxModule],
  controllers: [ParticipantsController],
  providers: [ParticipantsService, ParticipantsRepository, ErasureService],
  // The HTTP service's retention sweeper (AppModule) works with these.
  exports: [ErasureService, ParticipantsRepository],
})
export class ParticipantsModule {}
