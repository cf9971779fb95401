import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { CodebooksModule } from '../codebooks/codebooks.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { InterviewersModule } from '../interviewers/interviewers.module';
import { InterviewsModule } from '../interviews/interviews.module';
import { InvitesModule } from '../invites/invites.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { WebhookOutboxModule } from '../webhooks/webhook-outbox.module';
import { ReportCode } from './report-code.entity';
import { Report, ReportShare } from './report.entity';
import { OfflineAnalysisRunner } from './analysis/offline-analysis-runner';
import { AnalystsService } from './analyst/analysts.service';
import { ReportBuilder } from './report-builder';
import { ReportCodesRepository } from './report-codes.repository';
import { reportsConfig } from './reports.config';
import { ReportErasure } from './report-erasure';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';
import { ReportPageController } from './share/report-page.controller';

/** A shared report holds interviewees' words: no copies in caches, no indexing. */
function privatePage(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  next();
}

/**
 * Reports on interviews' answers: queued through the API, made in the background by ReportWorker
 * (BackgroundModule) in every instance of the HTTP service, shared as pages at /r/{shareID}. The shared
 * page brings what it needs from the HTTP pipeline itself: its headers, its rate limit and its error page.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Report, ReportShare, ReportCode]), CodebooksModule, IdempotencyModule, InterviewsModule, InvitesModule, InterviewersModule, RateLimitModule, WebhookOutboxModule],
  controllers: [ReportsController, ReportPageController],
  providers: [
    ReportsService,
    ReportsRepository,
    ReportCodesRepository,
    ReportErasure,
    ReportBuilder,
    AnalystsService,
    // A plain class (its other options are for tests): one per process, so one analysis worker thread.
    {
      provide: OfflineAnalysisRunner,
      inject: [reportsConfig.KEY],
      useFactory: (config: ConfigType<typeof reportsConfig>) => new OfflineAnalysisRunner({ heapMb: config.workerHeapMb }),
    },
  ],
  // The report worker (BackgroundModule) works with these.
  exports: [ReportsService, ReportErasure, ReportsRepository, ReportCodesRepository, ReportBuilder, AnalystsService],
})
export class ReportsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(privatePage).forRoutes({ path: 'r/*path', method: RequestMethod.ALL });
  }
}
