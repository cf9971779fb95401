import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { jsonBody } from '../common/json-body';
import { InterviewersModule } from '../interviewers/interviewers.module';
import { InvitesModule } from '../invites/invites.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { OpenLinkController } from './open-link.controller';
import { OpenLinkService } from './open-link.service';
import { OpenRateLimitGuard } from './open-rate-limit.guard';
import { RoomPageController } from './room-page.controller';
import { RoomController } from './room.controller';
import { ROOM_LIMITS } from './room.limits';
import { RoomService } from './room.service';
import { RoomVoiceController } from './room-voice.controller';
import { VoiceModule } from '../voice/voice.module';
import { RecruitmentModule } from '../recruitment/recruitment.module';

/** The room's answers carry a person's words: no copies in caches, no indexing. */
function privatePage(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  next();
}

/**
 * The interview room at /i/{linkID}: the page, its JSON API, and the service behind both; and the open
 * link /s/{openID} that a panel sends its participants to, a page of the room's kind with the room's
 * per-address rate limit, on the recruitment's settings (RecruitmentModule). It brings
 * what it needs from the HTTP pipeline itself: its own body limit (16 KB: a form or one answer; a
 * voice answer's recording is read by RoomVoiceController's own interceptor), its headers, its rate
 * limits (RoomRateLimitGuard) and its error page (RoomPageFilter).
 */
@Module({
  imports: [InvitesModule, InterviewersModule, RateLimitModule, VoiceModule, RecruitmentModule],
  controllers: [RoomController, RoomVoiceController, RoomPageController, OpenLinkController],
  providers: [RoomService, OpenLinkService, OpenRateLimitGuard],
  exports: [RoomService],
})
export class RoomModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(privatePage).forRoutes({ path: 'i/*path', method: RequestMethod.ALL });
    consumer.apply(jsonBody(ROOM_LIMITS.bodyBytes)).forRoutes(RoomController);
  }
}
