import { DynamicModule, Module } from '@nestjs/common';
import { AccessModule } from './access/access.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';

/**
 * What every process of the service needs, whether it answers HTTP (AppModule) or runs the domain
 * code from the command line (SeedModule, the benchmark): configuration, the database, access rules.
 */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CoreModule, imports: [ConfigModule.forRoot(config), DatabaseModule, AccessModule] };
  }
}
