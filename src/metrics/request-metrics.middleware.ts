import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { routeOf } from '../common/logging';
import { Metrics } from './metrics.service';

/** Times every request to its answer, labelled by method, route template (never the path) and status. */
@Injectable()
export class RequestMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: Metrics) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => this.metrics.requestDone(req.method, routeOf(req), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
    next();
  }
}
