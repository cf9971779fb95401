import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RateLimitMiddleware } from '../rate-limit/rate-limit.middleware';
import { JsonBodyMiddleware } from './json-body.middleware';
import { RequestContextMiddleware } from './request-context.middleware';
import { SecurityMiddleware } from './security.middleware';

/**
 * Every request's way in, in order: the request id and its log line, the security headers, the rate
 * limit, the JSON body. Each step keeps its own class and rules; they run in one Express layer rather
 * than four, because each layer costs every request a path match and Nest's middleware wrapper.
 * A step that throws (429, 413, ...) rejects this one, and Nest hands the error to the exception filter;
 * a step that answers the request itself (a CORS preflight) ends the pipeline there.
 */
@Injectable()
export class HttpPipelineMiddleware implements NestMiddleware {
  private readonly steps: NestMiddleware<Request, Response>[];

  constructor(context: RequestContextMiddleware, security: SecurityMiddleware, rateLimit: RateLimitMiddleware, body: JsonBodyMiddleware) {
    this.steps = [context, security, rateLimit, body];
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    for (const step of this.steps) {
      let proceeded = false;
      const done = step.use(req, res, () => (proceeded = true)) as unknown;
      if (done instanceof Promise) await done;
      if (!proceeded) return;
    }
    next();
  }
}
