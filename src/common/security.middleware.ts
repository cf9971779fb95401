import { Injectable, NestMiddleware } from '@nestjs/common';
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { AppConfig } from '../config/app-config';
import { roomLinkOf } from '../room/room-paths';

/**
 * Security headers on every response (helmet; also drops X-Powered-By), CORS only when configured, and
 * for the interview room (/i/...), whose answers carry personal data: no copies in caches, no indexing.
 */
@Injectable()
export class SecurityMiddleware implements NestMiddleware {
  private readonly handlers: RequestHandler[];

  constructor(config: AppConfig) {
    // upgrade-insecure-requests would send Swagger UI's assets to https on a plain-http deployment.
    this.handlers = [helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }) as RequestHandler];
    if (config.corsOrigins.length > 0) {
      this.handlers.push(
        cors({
          origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
          allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
          exposedHeaders: ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
        }) as RequestHandler,
      );
    }
  }

  use(req: Request, res: Response, next: NextFunction): void {
    if (roomLinkOf(req.originalUrl) !== undefined) {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    }
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const handler = this.handlers[i++];
      if (!handler) return next();
      handler(req, res, step);
    };
    step();
  }
}
