import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { InterviewersModule } from '../interviewers/interviewers.module';
import { ProductsModule } from '../products/products.module';
import { VoiceModule } from '../voice/voice.module';
import { Interview } from './interview.entity';
import { InterviewsController } from './interviews.controller';
import { InterviewsRepository } from './interviews.repository';
import { InterviewsService } from './interviews.service';

@Module({
  imports: [TypeOrmModule.forFeature([Interview]), IdempotencyModule, InterviewersModule, ProductsModule, VoiceModule],
  controllers: [InterviewsController],
  providers: [InterviewsService, InterviewsRepository],
  exports: [InterviewsService, InterviewsRepository],
})
export class InterviewsModule {}
