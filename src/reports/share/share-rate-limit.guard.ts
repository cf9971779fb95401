import type { ConfigType } from '@nestjs/config';
import { CanActivate, ExecutionContext, Injectable, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RateLimitBucket, RateLimiterService, addressKey } from '../../rate-limit/rate-limiter.service';
import { reportsConfig } from '../reports.config';

/** The shared pages' rate limit: per client address (SHARE_RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS), 429 past it. */
@Injectable()
export class ShareRateLimitGuard implements CanActivate {
  private readonly perAddress: RateLimitBucket;

  constructor(
    private readonly limiter: RateLimiterService,
    @Inject(reportsConfig.KEY) config: ConfigType<typeof reportsConfig>,
  ) {
    this.perAddress = limiter.bucket('shareAddress', config.shareRateLimit);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    this.limiter.enforce(http.getResponse<Response>(), [await this.perAddress.consume(addressKey(http.getRequest<Request>()))]);
    return true;
  }
}
