import { type ConfigFactoryKeyHost, registerAs } from '@nestjs/config';
import type { AppConfig, FeatureConfigReader } from './app-config';

/**
 * A feature's settings as an @nestjs/config namespace: a service injects them with
 * `@Inject(roomConfig.KEY) config: ConfigType<typeof roomConfig>`. The reader takes the environment of
 * the app being built (the tests build apps with environments of their own), so AppConfigModule loads
 * every namespace bound to its AppConfig; `ConfigModule.forFeature(roomConfig)` would call it without one.
 */
export type FeatureConfig<T> = FeatureConfigReader<T> & ConfigFactoryKeyHost<T>;

/** Every namespace defined so far, with its name: a feature's defines its own when its file loads. */
const namespaces = new Map<FeatureConfig<unknown>, string>();

export function featureConfig<T extends object>(namespace: string, read: FeatureConfigReader<T>): FeatureConfig<T> {
  // registerAs only names the function (KEY); its type wants a factory without arguments.
  const config = registerAs(namespace, read as unknown as () => T) as unknown as FeatureConfig<T>;
  namespaces.set(config as FeatureConfig<unknown>, namespace);
  return config;
}

/** Every defined namespace as a factory @nestjs/config's `load` takes, reading `app`'s environment. */
export function namespacesOf(app: AppConfig): (() => object)[] {
  return [...namespaces].map(([read, name]) => registerAs(name, () => app.feature(read) as object));
}
