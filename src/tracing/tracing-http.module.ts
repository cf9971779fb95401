import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { tracingEnabled } from '../config/tracing-env';
import { RequestSpanMiddleware } from './request-span.middleware';

/**
 * The HTTP service's side of tracing (AppModule only): a server span per request, when
 * OTEL_EXPORTER_OTLP_ENDPOINT turns tracing on (tracing.ts has started the SDK by then); nothing at all
 * otherwise.
 */
@Module({ providers: [RequestSpanMiddleware] })
export class TracingHttpModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    if (tracingEnabled()) consumer.apply(RequestSpanMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
