import { Module } from '@nestjs/common';
import { InterviewsModule } from '../interviews/interviews.module';
import { ProductsModule } from '../products/products.module';
import { DeletionController } from './deletion.controller';
import { DeletionRepository } from './deletion.repository';
import { DeletionService } from './deletion.service';

@Module({
  imports: [InterviewsModule, ProductsModule],
  controllers: [DeletionController],
  providers: [DeletionService, DeletionRepository],
})
export class DeletionModule {}
