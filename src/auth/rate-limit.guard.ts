import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config';

/**
 * Per-token rate limit, a fixed window of RATE_LIMIT_WINDOW_SECONDS holding RATE_LIMIT_MAX requests.
 * Runs after AuthGuard (so it counts tokens, not guesses) and sets the RateLimit-* headers on
 * every authenticated response. Counters are per process: with N instances the effective
 * limit is up to N times the setting.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (!req.principal) return true; // public route
    const res = context.switchToHttp().getResponse<Response>();
    const { limit, windowMs } = this.config.rateLimit;
    const now = Date.now();
    this.sweep(now, windowMs);

    let w = this.windows.get(req.principal.tokenId);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(req.principal.tokenId, w);
    }
    w.count++;
    const resetSeconds = Math.max(1, Math.ceil((w.resetAt - now) / 1000));
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - w.count)));
    res.setHeader('RateLimit-Reset', String(resetSeconds));
    if (w.count > limit) {
      res.setHeader('Retry-After', String(resetSeconds));
      throw new HttpException(`rate limit of ${limit} requests per ${windowMs / 1000} s exceeded; retry after ${resetSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
    }
    return true;
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
