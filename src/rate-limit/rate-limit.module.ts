import { Module } from '@nestjs/common';
import { RateLimitMiddleware } from './rate-limit.middleware';
import { RateLimiterService } from './rate-limiter.service';

/** The counters (RateLimiterService, which features ask for buckets of their own) and the API's limit. */
@Module({
  providers: [RateLimiterService, RateLimitMiddleware],
  exports: [RateLimiterService, RateLimitMiddleware],
})
export class RateLimitModule {}
