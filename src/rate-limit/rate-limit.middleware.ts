import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { presentedToken } from '../auth/bearer';
import { AppConfig } from '../config/app-config';
import { RateLimitBucket, RateLimiterService, addressKey } from './rate-limiter.service';

/**
 * The API's rate limit (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS), before body parsing and
 * authentication, so that every /v1 response (a 401 or 413 included) carries RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset, and a flood is refused before it costs anything. It counts
 * per token (the SHA-256 of what was presented: no database work), or per client address without one.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  private readonly api: RateLimitBucket;

  constructor(
    private readonly limiter: RateLimiterService,
    config: AppConfig,
  ) {
    this.api = limiter.bucket('api', config.rateLimit.limit);
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    const presented = presentedToken(req);
    this.limiter.enforce(res, [await this.api.consume(presented.kind === 'token' ? `t:${presented.hash}` : addressKey(req))]);
    next();
  }
}
