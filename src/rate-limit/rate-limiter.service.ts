import { HttpException, HttpStatus, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Request, Response } from 'express';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig, RedisConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics.service';

export interface RateLimitVerdict {
  /** The bucket that counted (api, room, room-link, share...), for the refusals metric. */
  bucket: string;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Until the window of this key starts again. */
  resetMs: number;
}

/** One set of counters with its own limit per RATE_LIMIT_WINDOW_SECONDS (per token, per address, per link...). */
export interface RateLimitBucket {
  consume(key: string): Promise<RateLimitVerdict>;
}

/**
 * A Redis command that takes longer than this counts as Redis being away: the request is counted in
 * this process instead, so a slow or frozen Redis never holds a request up.
 */
const REDIS_COMMAND_TIMEOUT_MS = 250;

/**
 * Fixed-window counters (rate-limiter-flexible), in buckets that the features ask for: /v1 per token
 * (RateLimitModule), the interview room per client address and per link (RoomModule).
 *
 * With REDIS_URL the counters are shared by every instance (ioredis; N instances allow the limit, not N
 * times it). While Redis cannot be reached, each instance counts in its own memory (the library's
 * insurance limiter), says so once in the log, and goes back to Redis by itself when it returns.
 */
@Injectable()
export class RateLimiterService implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly buckets = new Map<string, RateLimitBucket>();
  private readonly redis?: Redis;
  /** Whether the counters are shared right now; logged when it changes (and the first time it is known). */
  private shared: boolean | undefined;
  private readonly windowSeconds: number;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.windowSeconds = Math.ceil(config.rateLimit.windowMs / 1000);
    if (config.redis) this.redis = this.connect(config.redis);
  }

  /** The bucket of this name (created on first use) allowing `points` requests per key and window. */
  bucket(name: string, points: number): RateLimitBucket {
    let bucket = this.buckets.get(name);
    if (!bucket) this.buckets.set(name, (bucket = this.create(name, points)));
    return bucket;
  }

  onModuleDestroy(): void {
    this.redis?.disconnect();
  }

  private create(name: string, points: number): RateLimitBucket {
    const memory = new RateLimiterMemory({ keyPrefix: name, points, duration: this.windowSeconds });
    const limiter: RateLimiterAbstract = this.redis
      ? new RateLimiterRedis({
          storeClient: this.redis,
          keyPrefix: `${this.config.redis!.keyPrefix}rl:${name}`,
          points,
          duration: this.windowSeconds,
          // Not connected: count in memory at once rather than wait for a reconnection.
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
    const verdict = (res: RateLimiterRes, allowed: boolean): RateLimitVerdict => ({ bucket: name, allowed, limit: points, remaining: res.remainingPoints, resetMs: Math.max(0, res.msBeforeNext) });
    return {
      consume: async (key) => {
        try {
          return verdict(await limiter.consume(key), true);
        } catch (refused) {
          if (refused instanceof RateLimiterRes) return verdict(refused, false);
          throw refused;
        }
      },
    };
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

  /**
   * The tightest of some verdicts, as the response states it: RateLimit-Limit, -Remaining and -Reset, and
   * on a refusal 429 with Retry-After.
   */
  enforce(res: Response, verdicts: RateLimitVerdict[]): void {
    const refused = verdicts.filter((v) => !v.allowed);
    const pool = refused.length > 0 ? refused : verdicts;
    const verdict = pool.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a));
    const resetSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
    res.setHeader('RateLimit-Limit', String(verdict.limit));
    res.setHeader('RateLimit-Remaining', String(verdict.remaining));
    res.setHeader('RateLimit-Reset', String(resetSeconds));
    if (!verdict.allowed) {
      this.metrics.rateLimitRefused(verdict.bucket);
      res.setHeader('Retry-After', String(resetSeconds));
      throw new HttpException(`rate limit of ${verdict.limit} requests per ${this.windowSeconds} s exceeded; retry after ${resetSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
    }
  }
}

/** The client's address as a counter key (Express's req.ip). */
export function addressKey(req: Request): string {
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}
