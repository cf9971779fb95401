import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module';
import { InterviewersConfig, readInterviewersConfig } from './interviewers.config';
import { InterviewersController } from './interviewers.controller';
import { InterviewersService } from './interviewers.service';

const interviewersConfig = ConfigModule.forFeature(InterviewersConfig, readInterviewersConfig);

@Module({
  imports: [interviewersConfig],
  controllers: [InterviewersController],
  providers: [InterviewersService],
  // Reports read the agents' settings too: an openai agent can be a report's analyst.
  exports: [InterviewersService, interviewersConfig],
})
export class InterviewersModule {}
