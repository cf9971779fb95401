import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './app-config';

/**
 * Provides the AppConfig the process loaded once at start (createApp, the CLIs): the environment is
 * read in one place, and a bad value stops the process before Nest builds anything.
 */
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, global: true, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
