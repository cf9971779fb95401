import { Injectable } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config';

/** The counters a request can be held against, each with its own limit per RATE_LIMIT_WINDOW_SECONDS. */
export type RateLimitBucket = 'api' | 'roomAddress' | 'roomLink';

export interface RateLimitVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Until the window of this key starts again. */
  resetMs: number;
}

/**
 * Fixed-window counters (rate-limiter-flexible): RATE_LIMIT_MAX per token on /v1, ROOM_RATE_LIMIT_MAX per
 * client address and ROOM_LINK_RATE_LIMIT_MAX per link in the interview room. Counted in this process.
 */
@Injectable()
export class RateLimiterService {
  private readonly limiters: Record<RateLimitBucket, RateLimiterAbstract>;

  constructor(config: AppConfig) {
    const duration = Math.ceil(config.rateLimit.windowMs / 1000);
    const limiter = (keyPrefix: string, points: number) => new RateLimiterMemory({ keyPrefix, points, duration });
    this.limiters = {
      api: limiter('api', config.rateLimit.limit),
      roomAddress: limiter('room-address', config.room.rateLimit.perAddress),
      roomLink: limiter('room-link', config.room.rateLimit.perLink),
    };
  }

  /** Counts one request against `key` in `bucket`. */
  async consume(bucket: RateLimitBucket, key: string): Promise<RateLimitVerdict> {
    const limiter = this.limiters[bucket];
    const verdict = (res: RateLimiterRes, allowed: boolean): RateLimitVerdict => ({
      allowed,
      limit: limiter.points,
      remaining: res.remainingPoints,
      resetMs: Math.max(0, res.msBeforeNext),
    });
    try {
      return verdict(await limiter.consume(key), true);
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return verdict(refused, false);
      throw refused;
    }
  }
}
