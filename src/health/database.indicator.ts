import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { DatabaseHealth } from '../database/database-health';

/** The database as a terminus indicator: up while it answers DatabaseHealth's ping (bounded by DB_STATEMENT_TIMEOUT_MS). */
@Injectable()
export class DatabaseIndicator {
  constructor(
    private readonly database: DatabaseHealth,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async isHealthy(): Promise<HealthIndicatorResult<'database'>> {
    const indicator = this.indicators.check('database');
    try {
      await this.database.ping();
      return indicator.up();
    } catch {
      return indicator.down();
    }
  }
}
