import { Global, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Metrics } from './metrics.service';

/** mysql2's pool, as much of it as the gauge reads (its own fields: the driver offers no counters). */
interface Mysql2Pool {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/**
 * Metrics (METRICS_PORT): global and in every process's CoreModule, so that each feature records its own
 * (the room its turns, the relay its attempts) through Metrics and registers its gauges read at scrape
 * time. Only the HTTP service (AppModule) times requests and serves them (MetricsServer).
 */
@Global()
@Module({
  providers: [Metrics],
  exports: [Metrics],
})
export class MetricsModule {
  constructor(metrics: Metrics, @InjectDataSource() dataSource: DataSource) {
    metrics.gauge('irs_db_pool_connections', 'Database pool connections by state: in_use, idle, and requests waiting for one', ['state'], async (set) => {
      const pool = (dataSource.driver as { pool?: Mysql2Pool }).pool;
      if (!pool?._allConnections || !pool._freeConnections || !pool._connectionQueue) return;
      const idle = pool._freeConnections.length;
      set(pool._allConnections.length - idle, { state: 'in_use' });
      set(idle, { state: 'idle' });
      set(pool._connectionQueue.length, { state: 'waiting' });
    });
  }
}
