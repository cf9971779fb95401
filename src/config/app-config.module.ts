import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AppConfig } from './app-config';
import { namespacesOf } from './feature-config';

/**
 * Provides the AppConfig the process loaded once at start (createApp, the CLIs), and through
 * @nestjs/config every feature's namespace (featureConfig) read from the same environment. Nothing here
 * reads process.env or a .env file: AppConfig's environment is the only one (load-env.ts fills it from
 * .env in the entry points).
 */
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const load = namespacesOf(config);
    // Read now: a bad value stops the start with its ConfigError before the app is built, rather than
    // while its providers are made (by then the database may be connected, and a failed start would
    // leave the connection open).
    for (const namespace of load) namespace();
    return {
      module: AppConfigModule,
      global: true,
      imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validatePredefined: false, skipProcessEnv: true, load })],
      providers: [{ provide: AppConfig, useValue: config }],
      exports: [AppConfig],
    };
  }
}
