import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseIndicator } from './database.indicator';
import { HealthController } from './health.controller';
import { ServingState } from './serving-state';

/**
 * Health through @nestjs/terminus: its HealthCheckService runs the indicators and decides up or down.
 * Its own log of a failed check is off: an outage is logged where it is met (the exception filter), and
 * a load balancer polling /health would repeat it every few seconds.
 */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [ServingState, DatabaseIndicator],
  exports: [ServingState],
})
export class HealthModule {}
