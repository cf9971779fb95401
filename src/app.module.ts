import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AuthGuard } from './auth/auth.guard';
import { AuthModule } from './auth/auth.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { HttpPipelineMiddleware } from './common/http-pipeline.middleware';
import { JsonBodyMiddleware } from './common/json-body.middleware';
import { RequestContextMiddleware } from './common/request-context.middleware';
import { SecurityMiddleware } from './common/security.middleware';
import { ApiValidationPipe } from './common/validation';
import type { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { HealthModule } from './health/health.module';
import { InterviewersModule } from './interviewers/interviewers.module';
import { InterviewsModule } from './interviews/interviews.module';
import { InvitesModule } from './invites/invites.module';
import { ProductsModule } from './products/products.module';
import { ProfilesModule } from './profiles/profiles.module';
import { RoomModule } from './room/room.module';
import { ExpirySweeper } from './invites/expiry-sweeper';
import { WebhookRelay } from './webhooks/webhook-relay';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * The HTTP service and nothing else. Every global (guard, filter, pipe, middleware) is registered
 * here, and the {result} envelope is the HTTP adapter's (createApp), so a test that boots the app
 * through createApp runs exactly what production runs.
 */
@Module({
  imports: [
    AuthModule,
    RateLimitModule,
    HealthModule,
    ProductsModule,
    InterviewsModule,
    InterviewersModule,
    InvitesModule,
    ProfilesModule,
    RoomModule,
    WebhooksModule,
  ],
  providers: [
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_PIPE, useClass: ApiValidationPipe },
    // Only the HTTP service sweeps and sends webhooks (not the seed or bench contexts).
    ExpirySweeper,
    WebhookRelay,
    RequestContextMiddleware,
    SecurityMiddleware,
    JsonBodyMiddleware,
  ],
})
export class AppModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: AppModule, imports: [CoreModule.forRoot(config)] };
  }

  configure(consumer: MiddlewareConsumer): void {
    // Mounted on "/", which Express matches as a prefix of every path without a pattern; "*path" would
    // have the router run a pattern and decode a wildcard parameter on every request.
    consumer.apply(HttpPipelineMiddleware).forRoutes('/');
  }
}
