import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { InviteLifecycleService } from './invite-lifecycle.service';

/**
 * Expires invites past their expires_on every EXPIRY_SWEEP_SECONDS, so that reads and lists show it
 * without anyone opening the link. Runs in every instance of the HTTP service; the lifecycle's sweep
 * is safe when several run at once. A failing sweep (database away) is logged and tried next time.
 */
@Injectable()
export class ExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExpirySweeper.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly lifecycle: InviteLifecycleService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep().then(
        () => undefined,
        () => undefined,
      ).finally(() => (this.running = undefined));
    }, this.config.room.expirySweepMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
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
