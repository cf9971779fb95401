import { Module } from '@nestjs/common';
import { RateLimitMiddleware } from './rate-limit.middleware';
import { RateLimiterService } from './rate-limiter.service';

@Module({
  providers: [RateLimiterService, RateLimitMiddleware],
  exports: [RateLimiterService, RateLimitMiddleware],
})
export class RateLimitModule {}
