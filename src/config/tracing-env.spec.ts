import { otlpSignals, tracingEnabled } from './tracing-env';

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
