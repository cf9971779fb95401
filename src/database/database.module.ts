import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';

/** The DataSource of the HTTP service and of the CLIs that run the domain code (seed, bench). */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...buildDataSourceOptions(config), retryAttempts: 10, retryDelay: 2000 }),
    }),
  ],
})
export class DatabaseModule {}
