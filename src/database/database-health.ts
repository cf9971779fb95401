import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** Whether the database answers: the health checks' one question. */
@Injectable()
export class DatabaseHealth {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Rejects when the database does not answer (within DB_STATEMENT_TIMEOUT_MS, like every wait). A real
   * table rather than SELECT 1: an embedded database answers SELECT 1 without touching its file.
   */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1 FROM migrations LIMIT 1');
  }
}
