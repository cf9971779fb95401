import type { ConfigType } from '@nestjs/config';
import { Injectable, Logger, Inject } from '@nestjs/common';
import { Background } from '../common/background';
import { InviteLifecycleService } from './invite-lifecycle.service';
import { invitesConfig } from './invites.config';

/**
 * Expires invites past their expires_on every EXPIRY_SWEEP_SECONDS, so that reads and lists show it
 * without anyone opening the link. Runs in every instance of the HTTP service (a loop of the Background
 * component, BackgroundModule); the lifecycle's sweep is safe when several run at once. A failing sweep
 * (database away) is logged and tried next time.
 */
@Injectable()
export class ExpirySweeper {
  private readonly logger = new Logger(ExpirySweeper.name);

  constructor(
    private readonly lifecycle: InviteLifecycleService,
    @Inject(invitesConfig.KEY) config: ConfigType<typeof invitesConfig>,
    background: Background,
  ) {
    background.loop({ name: ExpirySweeper.name, everyMs: config.expirySweepMs }, async () => void (await this.sweep()));
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
