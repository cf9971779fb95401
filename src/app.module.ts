import { DynamicModule, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AnswersModule } from './answers/answers.module';
import { AuthGuard } from './auth/auth.guard';
import { AuthModule } from './auth/auth.module';
import { BackgroundModule } from './background.module';
import { CodebooksModule } from './codebooks/codebooks.module';
import { RecruitmentModule } from './recruitment/recruitment.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { jsonBody } from './common/json-body';
import { ResultInterceptor } from './common/result.interceptor';
import { createValidationPipe } from './common/validation';
import { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { DeletionModule } from './deletion/deletion.module';
import { HealthModule } from './health/health.module';
import { InterviewersModule } from './interviewers/interviewers.module';
import { InterviewsModule } from './interviews/interviews.module';
import { InvitesModule } from './invites/invites.module';
import { LanguagesModule } from './languages/languages.module';
import { MetricsHttpModule } from './metrics/metrics-http.module';
import { ParticipantsModule } from './participants/participants.module';
import { ProductsModule } from './products/products.module';
import { ProfilesModule } from './profiles/profiles.module';
import { RateLimitMiddleware } from './rate-limit/rate-limit.middleware';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { ReportsModule } from './reports/reports.module';
import { RoomModule } from './room/room.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { VoiceModule } from './voice/voice.module';

const API = { path: 'v1/*path', method: RequestMethod.ALL };

/**
 * The HTTP service. Every global is registered here (the AuthGuard, the exception filter, the {result}
 * interceptor, the ValidationPipe) and every middleware of the API, so a test that boots the app
 * through createApp runs exactly what production runs. Request ids and request logs come first, from
 * nestjs-pino's middleware (LoggerModule, in CoreModule); the room brings its own (RoomModule).
 */
@Module({
  imports: [
    MetricsHttpModule,
    AuthModule,
    RateLimitModule,
    HealthModule,
    ProductsModule,
    InterviewsModule,
    AnswersModule,
    CodebooksModule,
    RecruitmentModule,
    InterviewersModule,
    VoiceModule,
    LanguagesModule,
    InvitesModule,
    ProfilesModule,
    ParticipantsModule,
    DeletionModule,
    RoomModule,
    ReportsModule,
    WebhooksModule,
    // Only the HTTP service sweeps, sends webhooks and makes reports (not the seed or bench contexts).
    BackgroundModule,
  ],
  providers: [
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_INTERCEPTOR, useClass: ResultInterceptor },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
export class AppModule implements NestModule {
  constructor(private readonly config: AppConfig) {}

  static forRoot(config: AppConfig): DynamicModule {
    return { module: AppModule, imports: [CoreModule.forRoot(config)] };
  }

  configure(consumer: MiddlewareConsumer): void {
    // The API's rate limit before its bodies are read, so that every /v1 answer carries its headers.
    // The probes that ping the database are limited too; /health/live touches nothing.
    consumer.apply(RateLimitMiddleware).forRoutes(API, { path: 'health', method: RequestMethod.ALL }, { path: 'health/ready', method: RequestMethod.ALL });
    consumer.apply(jsonBody(this.config.bodyLimitBytes)).forRoutes(API);
  }
}
