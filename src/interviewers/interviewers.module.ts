import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module';
import { InterviewersConfig, readInterviewersConfig } from './interviewers.config';
import { InterviewersController } from './interviewers.controller';
import { InterviewersService } from './interviewers.service';

@Module({
  imports: [ConfigModule.forFeature(InterviewersConfig, readInterviewersConfig)],
  controllers: [InterviewersController],
  providers: [InterviewersService],
  exports: [InterviewersService],
})
export class InterviewersModule {}
