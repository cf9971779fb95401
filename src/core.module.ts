import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AccessModule } from './access/access.module';
import { BackgroundComponentModule } from './common/background.module';
import { loggerParams } from './common/logging';
import { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/app-config.module';
import { DatabaseModule } from './database/database.module';
import { MetricsModule } from './metrics/metrics.module';

/**
 * What every process of the service needs, whether it answers HTTP (AppModule) or runs the domain
 * code from the command line (SeedModule, the benchmark): configuration, logs, the database, access rules, metrics.
 */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggerModule.forRootAsync({ inject: [AppConfig], useFactory: (c: AppConfig) => loggerParams(c) }),
        DatabaseModule,
        AccessModule,
        MetricsModule,
        BackgroundComponentModule,
      ],
    };
  }
}
