import { HttpException, HttpStatus, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { AppConfig } from '../config/app-config';

const MAX_BUCKETS = 100_000;

/**
 * Per-token rate limit: a fixed window of RATE_LIMIT_WINDOW_SECONDS holding RATE_LIMIT_MAX requests,
 * keyed by the SHA-256 of the presented bearer token (no database work), or by the client address
 * when there is none. It runs before body parsing and authentication, so every response, a 401 or
 * 413 included, carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, and a flood is
 * refused before it costs anything. Counters are per process: N instances allow up to N times the limit.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  private readonly buckets = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(private readonly config: AppConfig) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const { limit, windowMs } = this.config.rateLimit;
    const now = Date.now();
    this.sweep(now, windowMs);

    const key = this.keyOf(req);
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      bucket = { count: 0, resetAt: now + windowMs };
      this.buckets.delete(key);
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
      this.buckets.set(key, bucket);
    }
    bucket.count++;
    const resetSeconds = Math.max(1, Math.ceil((bucket.resetAt - now) / 1000));
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - bucket.count)));
    res.setHeader('RateLimit-Reset', String(resetSeconds));
    if (bucket.count > limit) {
      res.setHeader('Retry-After', String(resetSeconds));
      throw new HttpException(`rate limit of ${limit} requests per ${windowMs / 1000} s exceeded; retry after ${resetSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
    }
    next();
  }

  private keyOf(req: Request): string {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization?.trim() ?? '');
    if (match) return `t:${createHash('sha256').update(match[1]).digest('base64url')}`;
    return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, b] of this.buckets) if (b.resetAt <= now) this.buckets.delete(key);
  }
}
