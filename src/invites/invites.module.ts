import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InterviewsModule } from '../interviews/interviews.module';
import { ProductsModule } from '../products/products.module';
import { InviteLifecycleService } from './invite-lifecycle.service';
import { Invite } from './invite.entity';
import { InvitesController } from './invites.controller';
import { InvitesService } from './invites.service';

@Module({
  imports: [TypeOrmModule.forFeature([Invite]), InterviewsModule, ProductsModule],
  controllers: [InvitesController],
  providers: [InvitesService, InviteLifecycleService],
  exports: [InvitesService, InviteLifecycleService],
})
export class InvitesModule {}
