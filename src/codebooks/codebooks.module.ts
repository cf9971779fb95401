import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InterviewsModule } from '../interviews/interviews.module';
import { Codebook } from './codebook.entity';
import { CodebooksController } from './codebooks.controller';
import { CodebooksRepository } from './codebooks.repository';
import { CodebooksService } from './codebooks.service';

/** Interviews' codebooks: set and read by teams, applied by reports. */
@Module({
  imports: [TypeOrmModule.forFeature([Codebook]), InterviewsModule],
  controllers: [CodebooksController],
  providers: [CodebooksService, CodebooksRepository],
  exports: [CodebooksService],
})
export class CodebooksModule {}
