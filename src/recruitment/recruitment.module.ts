import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InterviewsModule } from '../interviews/interviews.module';
import { InvitesModule } from '../invites/invites.module';
import { Recruitment } from './recruitment.entity';
import { QualityService } from './quality.service';
import { RecruitmentController } from './recruitment.controller';
import { RecruitmentRepository } from './recruitment.repository';
import { RecruitmentService } from './recruitment.service';

/**
 * Recruitment through panels: the settings under /v1/interviews, and what the room asks of them: the
 * open link's arrivals and places, the quality checks it runs on every answer, the redirects. The open
 * link's page /s/{openID} is the room's (RoomModule), which builds on this module.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Recruitment]), InterviewsModule, InvitesModule],
  controllers: [RecruitmentController],
  providers: [RecruitmentService, RecruitmentRepository, QualityService],
  exports: [RecruitmentService, QualityService],
})
export class RecruitmentModule {}
