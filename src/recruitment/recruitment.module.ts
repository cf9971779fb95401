import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigModule } from '../config/config.module';
import { InterviewsModule } from '../interviews/interviews.module';
import { InvitesModule } from '../invites/invites.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { RoomConfig, readRoomConfig } from '../room/room.config';
import { Recruitment } from './recruitment.entity';
import { OpenLinkController } from './open-link.controller';
import { OpenLinkService } from './open-link.service';
import { OpenRateLimitGuard } from './open-rate-limit.guard';
import { QualityService } from './quality.service';
import { RecruitmentController } from './recruitment.controller';
import { RecruitmentRepository } from './recruitment.repository';
import { RecruitmentService } from './recruitment.service';

/**
 * Recruitment through panels: the settings under /v1/interviews, the open link /s/{openID} (a page of
 * the room's kind, with the room's per-address rate limit), and the quality checks the room runs on
 * every answer.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Recruitment]), ConfigModule.forFeature(RoomConfig, readRoomConfig), InterviewsModule, InvitesModule, RateLimitModule],
  controllers: [RecruitmentController, OpenLinkController],
  providers: [RecruitmentService, RecruitmentRepository, OpenLinkService, OpenRateLimitGuard, QualityService],
  exports: [RecruitmentService, QualityService],
})
export class RecruitmentModule {}
