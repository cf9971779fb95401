import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InviteLifecycleService } from './invite-lifecycle.service';
import { InvitesConfig } from './invites.config';

/**
 * Expires invites past their expires_on every EXPIRY_SWEEP_SECONDS, so that reads and lists show it
 * without anyone opening the link. Runs in every instance of the HTTP service (an interval of
 * @nestjs/schedule, registered at bootstrap because its period is configured); the lifecycle's sweep is
 * safe when several run at once. A failing sweep (database away) is logged and tried next time.
 */
@Injectable()
export class ExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExpirySweeper.name);
  private running?: Promise<number>;

  constructor(
    private readonly lifecycle: InviteLifecycleService,
    private readonly config: InvitesConfig,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const timer = setInterval(() => {
      this.running ??= this.sweep().finally(() => (this.running = undefined));
    }, this.config.expirySweepMs);
    this.scheduler.addInterval(ExpirySweeper.name, timer);
  }

  /** The schedule stops its intervals at shutdown; a sweep under way is waited for. */
  async onApplicationShutdown(): Promise<void> {
    await this.running;
  }

  /** Sweeps until nothing is due (in batches, each its own short transaction). */
  async sweep(now = new Date()): Promise<number> {
    let total = 0;
    try {
      for (let expired = -1; expired !== 0; total += expired) expired = await this.lifecycle.sweepExpired(now);
      if (total > 0) this.logger.log({ msg: 'expired invites', count: total });
    } catch (error) {
      this.logger.warn({ msg: 'expiry sweep failed; will try again', error: error instanceof Error ? error.message : String(error) });
    }
    return total;
  }
}
