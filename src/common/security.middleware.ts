import { Injectable, NestMiddleware } from '@nestjs/common';
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { AppConfig } from '../config/app-config';
import { roomLinkOf } from '../room/room-paths';

/**
 * The headers a helmet configuration sets. They do not depend on the request (no CSP nonces here),
 * so they are read once, by running helmet on a stand-in response, instead of by a dozen middleware
 * functions on every request.
 */
function headersOf(middleware: RequestHandler): [string, string][] {
  const headers: [string, string][] = [];
  const stand = { setHeader: (name: string, value: unknown) => headers.push([name, String(value)]), removeHeader: () => undefined };
  let ran = false;
  middleware({} as Request, stand as unknown as Response, () => (ran = true));
  if (!ran) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * Security headers on every response (helmet's; X-Powered-By is off in app.factory.ts), CORS only when
 * configured, and for the interview room (/i/...), whose answers carry personal data: no copies in
 * caches, no indexing.
 */
@Injectable()
export class SecurityMiddleware implements NestMiddleware {
  private readonly headers: [string, string][];
  private readonly cors?: RequestHandler;

  constructor(config: AppConfig) {
    // upgrade-insecure-requests would send Swagger UI's assets to https on a plain-http deployment.
    this.headers = headersOf(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }) as RequestHandler);
    if (config.corsOrigins.length > 0) {
      this.cors = cors({
        origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
        allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
        exposedHeaders: ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
      }) as RequestHandler;
    }
  }

  use(req: Request, res: Response, next: NextFunction): void {
    for (const [name, value] of this.headers) res.setHeader(name, value);
    if (roomLinkOf(req.originalUrl) !== undefined) {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    }
    if (this.cors) this.cors(req, res, next);
    else next();
  }
}
