import { Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseHealth } from './database-health';
import { buildDataSourceOptions } from './data-source-options';

/**
 * Connects, then runs pending migrations itself (rather than TypeORM's migrationsRun), so that the log
 * says what it did: how many ran and which, or that the schema was up to date.
 */
async function connectAndMigrate(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource({ ...options, migrationsRun: false }).initialize();
  if (options.migrationsRun) {
    const logger = new Logger('Database');
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    const total = dataSource.migrations.length;
    if (ran.length > 0) logger.log({ msg: 'migrations applied', count: ran.length, of: total, names: ran.map((m) => m.name).join(', ') });
    else logger.log({ msg: 'schema up to date', migrations: total });
  }
  return dataSource;
}

/** The DataSource of the HTTP service and of the CLIs that run the domain code (seed, bench). */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...buildDataSourceOptions(config), autoLoadEntities: true, retryAttempts: 10, retryDelay: 2000 }),
      dataSourceFactory: (options) => connectAndMigrate(options!),
    }),
  ],
  providers: [DatabaseHealth],
  exports: [DatabaseHealth],
})
export class DatabaseModule {}
