import { Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Background } from './common/background';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { IdempotencySweeper } from './idempotency/idempotency-sweeper';
import { ExpirySweeper } from './invites/expiry-sweeper';
import { InvitesModule } from './invites/invites.module';
import { ParticipantsModule } from './participants/participants.module';
import { RetentionSweeper } from './participants/retention-sweeper';
import { ReportWorker } from './reports/report-worker';
import { ReportsModule } from './reports/reports.module';
import { WebhookRelay } from './webhooks/webhook-relay';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * Every piece of the HTTP service's background work, in one place: each registers its loop with the
 * Background component, which starts them all at bootstrap and stops them all at shutdown (handing back
 * what they had claimed). Only the HTTP service (AppModule) imports this: the seed and the benchmark
 * contexts run no background work.
 */
@Module({
  imports: [IdempotencyModule, InvitesModule, ParticipantsModule, ReportsModule, WebhooksModule],
  providers: [WebhookRelay, ReportWorker, ExpirySweeper, RetentionSweeper, IdempotencySweeper],
})
export class BackgroundModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(private readonly background: Background) {}

  onApplicationBootstrap(): void {
    this.background.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.background.stop();
  }
}
