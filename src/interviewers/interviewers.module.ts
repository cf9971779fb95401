import { Module } from '@nestjs/common';
import { InterviewersService } from './interviewers.service';

@Module({
  providers: [InterviewersService],
  exports: [InterviewersService],
})
export class InterviewersModule {}
