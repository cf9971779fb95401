import { HttpException, HttpStatus, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { presentedToken } from '../auth/bearer';
import { AppConfig } from '../config/app-config';
import { roomLinkOf } from '../room/room-paths';
import { RateLimitVerdict, RateLimiterService } from './rate-limiter.service';

/** Swagger UI and the room's assets: static files, loaded several at a time, need no protection. */
const UNLIMITED = /^\/(docs(-json|-yaml)?|assets)(\/|\?|$)/;

/**
 * Rate limits, before body parsing and authentication, so that every response (a 401 or 413 included)
 * carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, and a flood is refused before it
 * costs anything. /v1 counts per token (the SHA-256 of what was presented: no database work), or per
 * client address without one; the interview room counts per client address and per link, and the
 * tighter of the two answers.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  constructor(
    private readonly limiter: RateLimiterService,
    private readonly config: AppConfig,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (UNLIMITED.test(req.originalUrl)) return next();
    const verdict = await this.check(req);
    const resetSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
    res.setHeader('RateLimit-Limit', String(verdict.limit));
    res.setHeader('RateLimit-Remaining', String(verdict.remaining));
    res.setHeader('RateLimit-Reset', String(resetSeconds));
    if (!verdict.allowed) {
      res.setHeader('Retry-After', String(resetSeconds));
      const window = this.config.rateLimit.windowMs / 1000;
      throw new HttpException(`rate limit of ${verdict.limit} requests per ${window} s exceeded; retry after ${resetSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
    }
    next();
  }

  private async check(req: Request): Promise<RateLimitVerdict> {
    const linkID = roomLinkOf(req.originalUrl);
    if (linkID === undefined) {
      const presented = presentedToken(req);
      return this.limiter.consume('api', presented.kind === 'token' ? `t:${presented.hash}` : addressOf(req));
    }
    const verdicts = await Promise.all([this.limiter.consume('roomAddress', addressOf(req)), this.limiter.consume('roomLink', linkID)]);
    return tightest(verdicts);
  }

}

/** The client's address as a counter key (Express's req.ip, which is not free: only when a request has no token). */
function addressOf(req: Request): string {
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/** A refusal wins; otherwise the counter with the fewest requests left. */
function tightest(verdicts: RateLimitVerdict[]): RateLimitVerdict {
  const refused = verdicts.filter((v) => !v.allowed);
  const pool = refused.length > 0 ? refused : verdicts;
  return pool.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a));
}
