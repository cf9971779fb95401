import { Injectable, Logger, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { loggedPath } from '../room/room-paths';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;


/**
 * Gives every request an id (the client's X-Request-Id when it is sane, else a new UUID),
 * echoes it, and writes one structured log line when the response is finished.
 * The line carries no linkID (see loggedPath), no header and no body.
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  private readonly logger = new Logger('HTTP');

  use(req: Request, res: Response, next: NextFunction): void {
    const given = req.headers['x-request-id'];
    req.id = typeof given === 'string' && CLIENT_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const started = performance.now();
    res.on('finish', () => {
      const durationMs = performance.now() - started;
      this.logger.log({
        msg: 'request',
        requestId: req.id,
        method: req.method,
        path: loggedPath(req.originalUrl ?? req.url),
        status: res.statusCode,
        durationMs: Math.round(durationMs * 100) / 100,
      });
    });
    next();
  }
}
