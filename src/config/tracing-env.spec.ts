import { DEFAULT_SAMPLER, applyDefaultSampling, otlpSignals, tracingEnabled } from './tracing-env';

describe(tracingEnabled.name, () => {
  it('is on when a collector is named, unless the SDK is disabled', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: ' TRUE ' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' })).toBe(true);
  });
});

describe(otlpSignals.name, () => {
  it('sends metrics and logs over OTLP only when their exporter variable names one', () => {
    expect(otlpSignals({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({ metrics: false, logs: false });
    expect(otlpSignals({ OTEL_METRICS_EXPORTER: ' ', OTEL_LOGS_EXPORTER: '' })).toEqual({ metrics: false, logs: false });
    expect(otlpSignals({ OTEL_METRICS_EXPORTER: 'otlp' })).toEqual({ metrics: true, logs: false });
    expect(otlpSignals({ OTEL_LOGS_EXPORTER: 'console' })).toEqual({ metrics: false, logs: true });
  });
});

describe(applyDefaultSampling.name, () => {
  it('samples a tenth of the traces that start here, following a caller\'s decision, when nothing is set', () => {
    const env: Record<string, string | undefined> = {};
    applyDefaultSampling(env);
    expect(env).toEqual({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' });
    expect(DEFAULT_SAMPLER.OTEL_TRACES_SAMPLER_ARG).toBe('0.1');
  });

  it('leaves OTEL_TRACES_SAMPLER (and its argument) to whoever set it', () => {
    const env: Record<string, string | undefined> = { OTEL_TRACES_SAMPLER: 'always_on' };
    applyDefaultSampling(env);
    expect(env).toEqual({ OTEL_TRACES_SAMPLER: 'always_on' });
  });
});
