import { DynamicModule, Module, Type } from '@nestjs/common';
import { AppConfig, FeatureConfigReader } from './app-config';

/**
 * Provides the AppConfig the process loaded once at start (createApp, the CLIs), and, for each feature
 * module that registers one, that feature's own settings read from the same environment:
 * `ConfigModule.forFeature(RoomConfig, readRoomConfig)` in RoomModule makes RoomConfig injectable there.
 */
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, global: true, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }

  static forFeature<T>(token: Type<T>, reader: FeatureConfigReader<T>): DynamicModule {
    const provider = { provide: token, useFactory: (app: AppConfig) => app.feature(reader), inject: [AppConfig] };
    return { module: ConfigModule, providers: [provider], exports: [token] };
  }
}
