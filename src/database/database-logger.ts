import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * TypeORM's logger on MySQL, through Nest's (so LOG_LEVEL and the JSON log apply). TypeORM's own prints
 * a slow query with its parameters (linkIDs among them) through console.log whatever `logging` says;
 * this one says how long it took and nothing of what it carried. Failed queries reach the exception
 * filter, which logs them without parameters; migrations are logged by DatabaseModule.
 */
export class DatabaseLogger implements TypeOrmLogger {
  private readonly logger = new Logger('Database');

  logQuery(): void {}

  logQueryError(): void {}

  logQuerySlow(time: number): void {
    this.logger.warn({ msg: 'a query ran past DB_STATEMENT_TIMEOUT_MS', ms: time });
  }

  logSchemaBuild(): void {}

  logMigration(): void {}

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn({ msg: String(message) });
  }
}
