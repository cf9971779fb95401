import { Injectable } from '@nestjs/common';

/**
 * Whether this process still wants traffic. On SIGTERM it drains (SHUTDOWN_DRAIN_MS): /health answers
 * 503 at once so that a load balancer stops sending, while requests that still arrive are served.
 */
@Injectable()
export class ServingState {
  private drainingSince: number | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  drain(): void {
    this.drainingSince ??= Date.now();
  }
}
