import { sdkOptions, tracingActive, tracingRequested as sut } from './tracing';

describe('tracingRequested', () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: 'card-api' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp,None' }, false],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }, false],
    [{ OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, true],
  ])('%j asks for traces: %s', (env, expected) => {
    expect(sut(env)).toBe(expected);
  });
});

describe('sdkOptions', () => {
  it('names the service after the app unless OTEL_* names it, and exports traces only', () => {
    expect(sdkOptions('card-api', '0.1.0', {})).toEqual({
      resourceAttributes: { 'service.name': 'card-api', 'service.version': '0.1.0' },
      metricReaders: [],
      logRecordProcessors: [],
    });
    expect(sdkOptions('card-api', '0.1.0', { OTEL_SERVICE_NAME: 'cards' }).resourceAttributes).toEqual({
      'service.version': '0.1.0',
    });
    expect(
      sdkOptions('card-api', '0.1.0', {
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=cards',
      }).resourceAttributes,
    ).toEqual({ 'service.version': '0.1.0' });
  });

  it('leaves tracing off until it is started', () => {
    expect(tracingActive()).toBe(false);
  });
});
