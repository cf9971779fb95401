import { Module } from '@nestjs/common';
import { InterviewersModule } from '../interviewers/interviewers.module';
import { InvitesModule } from '../invites/invites.module';
import { RoomPageController } from './room-page.controller';
import { RoomController } from './room.controller';
import { RoomService } from './room.service';

/** The interview room at /i/{linkID}: the page, its JSON API, and the service behind both. */
@Module({
  imports: [InvitesModule, InterviewersModule],
  controllers: [RoomController, RoomPageController],
  providers: [RoomService],
  exports: [RoomService],
})
export class RoomModule {}
