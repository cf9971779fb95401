import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig, RedisConfig } from '../config/app-config';

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
 * A Redis command that takes longer than this counts as Redis being away: the request is counted in
 * this process instead, so a slow or frozen Redis never holds a request up.
 */
const REDIS_COMMAND_TIMEOUT_MS = 250;

/**
 * Fixed-window counters (rate-limiter-flexible): RATE_LIMIT_MAX per token on /v1, ROOM_RATE_LIMIT_MAX per
 * client address and ROOM_LINK_RATE_LIMIT_MAX per link in the interview room.
 *
 * With REDIS_URL the counters are shared by every instance (ioredis; N instances allow the limit, not N
 * times it). While Redis cannot be reached, each instance counts in its own memory (the library's
 * insurance limiter), says so once in the log, and goes back to Redis by itself when it returns.
 */
@Injectable()
export class RateLimiterService implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly limiters: Record<RateLimitBucket, RateLimiterAbstract>;
  private readonly redis?: Redis;
  /** Whether the counters are shared right now; logged when it changes (and the first time it is known). */
  private shared: boolean | undefined;

  constructor(config: AppConfig) {
    const duration = Math.ceil(config.rateLimit.windowMs / 1000);
    const points: Record<RateLimitBucket, number> = {
      api: config.rateLimit.limit,
      roomAddress: config.room.rateLimit.perAddress,
      roomLink: config.room.rateLimit.perLink,
    };
    const memory = (bucket: RateLimitBucket) => new RateLimiterMemory({ keyPrefix: bucket, points: points[bucket], duration });
    if (config.redis) {
      const redis = this.connect(config.redis);
      this.redis = redis;
      const shared = (bucket: RateLimitBucket) =>
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${config.redis!.keyPrefix}rl:${bucket}`,
          points: points[bucket],
          duration,
          // Not connected: count in memory at once rather than wait for a reconnection.
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory(bucket),
        });
      this.limiters = { api: shared('api'), roomAddress: shared('roomAddress'), roomLink: shared('roomLink') };
    } else {
      this.limiters = { api: memory('api'), roomAddress: memory('roomAddress'), roomLink: memory('roomLink') };
    }
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

  onModuleDestroy(): void {
    this.redis?.disconnect();
  }

  private connect(config: RedisConfig): Redis {
    const redis = new Redis(config.url, {
      // Fail at once while disconnected (the insurance limiter counts), and never wait long on a command.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 1000,
      // Keep trying, at most every 2 s: the counters go back to Redis as soon as it answers again.
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    redis.on('ready', () => {
      if (this.shared !== true) this.logger.log({ msg: 'rate limits shared through Redis' });
      this.shared = true;
    });
    const lost = (error?: Error) => {
      if (this.shared !== false) this.logger.warn({ msg: 'Redis unreachable: rate limits counted per process until it is back', error: error?.message });
      this.shared = false;
    };
    redis.on('error', lost);
    redis.on('close', () => lost());
    return redis;
  }
}
