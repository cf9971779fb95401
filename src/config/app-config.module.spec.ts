import { Inject, Injectable } from '@nestjs/common';
import { ConfigService, type ConfigType } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { loadConfig } from './app-config';
import { AppConfigModule } from './app-config.module';
import { ConfigError } from './config-error';
import { readInt } from './env';
import { featureConfig } from './feature-config';

const sampleConfig = featureConfig('sample', (env, app) => ({ limit: readInt(env, 'SAMPLE_LIMIT', 5, 1, 10), port: app.port }));

@Injectable()
class SampleService {
  constructor(@Inject(sampleConfig.KEY) readonly config: ConfigType<typeof sampleConfig>) {}
}

const build = async (env: Record<string, string>) => {
  const module = await Test.createTestingModule({ imports: [AppConfigModule.forRoot(loadConfig(env))], providers: [SampleService] }).compile();
  return { sample: module.get(SampleService).config, service: module.get(ConfigService) };
};

describe(AppConfigModule.name, () => {
  it("gives each app a feature's namespace read from that app's own environment", async () => {
    const one = await build({ SAMPLE_LIMIT: '7', PORT: '4000' });
    const other = await build({});
    expect(one.sample).toEqual({ limit: 7, port: 4000 });
    expect(other.sample).toEqual({ limit: 5, port: 3000 });
    expect(one.service.get('sample.limit')).toBe(7);
  });

  it('reads every namespace as it is made, so that a bad value stops the start before any provider is built', () => {
    expect(() => AppConfigModule.forRoot(loadConfig({ SAMPLE_LIMIT: '11' }))).toThrow(ConfigError);
    expect(() => AppConfigModule.forRoot(loadConfig({ SAMPLE_LIMIT: '11' }))).toThrow('SAMPLE_LIMIT must be a whole number from 1 to 10 (got "11")');
  });

  it('does not see the process environment through ConfigService', async () => {
    process.env.SAMPLE_ONLY_IN_PROCESS = 'x';
    try {
      const { service } = await build({});
      expect(service.get('SAMPLE_ONLY_IN_PROCESS')).toBeUndefined();
    } finally {
      delete process.env.SAMPLE_ONLY_IN_PROCESS;
    }
  });
});
