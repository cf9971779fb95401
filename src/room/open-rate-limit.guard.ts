import type { ConfigType } from '@nestjs/config';
import { CanActivate, ExecutionContext, Injectable, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RateLimitBucket, RateLimiterService, addressKey } from '../rate-limit/rate-limiter.service';
import { roomConfig } from './room.config';

/**
 * The open link's rate limit: per client address, the room's own budget (ROOM_RATE_LIMIT_MAX per
 * RATE_LIMIT_WINDOW_SECONDS). Not per link: one study link is opened by every participant of a panel.
 */
@Injectable()
export class OpenRateLimitGuard implements CanActivate {
  private readonly perAddress: RateLimitBucket;

  constructor(
    private readonly limiter: RateLimiterService,
    @Inject(roomConfig.KEY) config: ConfigType<typeof roomConfig>,
  ) {
    this.perAddress = limiter.bucket('roomAddress', config.rateLimit.perAddress);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    this.limiter.enforce(http.getResponse<Response>(), [await this.perAddress.consume(addressKey(http.getRequest<Request>()))]);
    return true;
  }
}
