import { Module } from '@nestjs/common';
import { InterviewsModule } from '../interviews/interviews.module';
import { InvitesModule } from '../invites/invites.module';
import { ReportsModule } from '../reports/reports.module';
import { AnswersController } from './answers.controller';
import { AnswersService } from './answers.service';

/** An interview's answers: listed, exported, and read by the reports. */
@Module({
  imports: [InterviewsModule, InvitesModule, ReportsModule],
  controllers: [AnswersController],
  providers: [AnswersService],
  exports: [AnswersService],
})
export class AnswersModule {}
