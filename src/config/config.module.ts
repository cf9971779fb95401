import { DynamicModule, Module, Type } from '@nestjs/common';
import { AppConfig, FeatureConfigReader } from './app-config';

/**
 * Provides the AppConfig the process loaded once at start (createApp, the CLIs), and, for each feature
 * module that registers one, that feature's own settings read from the same environment:
 * `ConfigModule.forFeature(RoomConfig, readRoomConfig)` in RoomModule makes RoomConfig injectable there.
 */
@Module({})
export class ConfigModule {
  /** Every feature reader registered so far (modules register theirs when their files load). */
  private static readonly readers = new Set<FeatureConfigReader<unknown>>();

  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, global: true, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }

  static forFeature<T>(token: Type<T>, reader: FeatureConfigReader<T>): DynamicModule {
    ConfigModule.readers.add(reader);
    const provider = { provide: token, useFactory: (app: AppConfig) => app.feature(reader), inject: [AppConfig] };
    return { module: ConfigModule, providers: [provider], exports: [token] };
  }

  /**
   * Reads every registered feature's settings now: a bad value then stops the start with its
   * ConfigError before the app is built, rather than while its providers are made (by then the database
   * may be connected, and a failed start would leave the connection open).
   */
  static checkFeatures(config: AppConfig): void {
    for (const reader of ConfigModule.readers) config.feature(reader);
  }
}
