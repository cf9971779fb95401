import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { MetricsServer } from './metrics-server';
import { Metrics } from './metrics.service';
import { RequestMetricsMiddleware } from './request-metrics.middleware';

/**
 * The HTTP service's side of the metrics (AppModule only): every request timed, and the second listener
 * that serves them (METRICS_PORT). Nothing at all when metrics are off.
 */
@Module({ providers: [MetricsServer, RequestMetricsMiddleware] })
export class MetricsHttpModule implements NestModule {
  constructor(private readonly metrics: Metrics) {}

  configure(consumer: MiddlewareConsumer): void {
    if (this.metrics.enabled) consumer.apply(RequestMetricsMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
