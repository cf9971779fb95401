import type { ConfigType } from '@nestjs/config';
import { CanActivate, ExecutionContext, Injectable, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RateLimitBucket, RateLimiterService, addressKey } from '../rate-limit/rate-limiter.service';
import { roomConfig } from './room.config';

/**
 * The interview room's rate limits: per client address (ROOM_RATE_LIMIT_MAX) and per link
 * (ROOM_LINK_RATE_LIMIT_MAX), each per RATE_LIMIT_WINDOW_SECONDS; the tighter of the two answers, with
 * 429 and Retry-After past it. A guard of the room's controllers, so that the page's refusal comes as a
 * page (its exception filter) and the JSON API's as JSON.
 */
@Injectable()
export class RoomRateLimitGuard implements CanActivate {
  private readonly perAddress: RateLimitBucket;
  private readonly perLink: RateLimitBucket;

  constructor(
    private readonly limiter: RateLimiterService,
    @Inject(roomConfig.KEY) config: ConfigType<typeof roomConfig>,
  ) {
    this.perAddress = limiter.bucket('roomAddress', config.rateLimit.perAddress);
    this.perLink = limiter.bucket('roomLink', config.rateLimit.perLink);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const linkID = String(req.params.linkID);
    this.limiter.enforce(http.getResponse<Response>(), await Promise.all([this.perAddress.consume(addressKey(req)), this.perLink.consume(linkID)]));
    return true;
  }
}
