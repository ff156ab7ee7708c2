import type { startNodeSdk } from '@opentelemetry/sdk-node';

/** The options read besides the environment (not the declarative-file variant). */
type SdkOptions = Extract<NonNullable<Parameters<typeof startNodeSdk>[0]>, { resourceAttributes?: unknown }>;

/** What `startTracing` leaves running: flushes and stops the exporter on shutdown. */
export interface Tracing {
  shutdown(): Promise<void>;
}

let active = false;

/** True once `startTracing` installed an SDK in this process; spans are made only then. */
export function tracingActive(): boolean {
  return active;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/**
 * Whether the standard OTEL_* variables ask for traces: an exporter named in OTEL_TRACES_EXPORTER
 * (other than `none`), or an OTLP endpoint. With none of them nothing is exported, so no SDK is
 * loaded at all; OTEL_SDK_DISABLED=true wins over everything.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = list(env.OTEL_TRACES_EXPORTER);
  if (exporters.length) return !exporters.includes('none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** The SDK options beyond the environment: traces only, and the app's name unless OTEL_* names the service. */
export function sdkOptions(
  serviceName: string,
  serviceVersion: string,
  env: NodeJS.ProcessEnv = process.env,
): SdkOptions {
  const named =
    Boolean(env.OTEL_SERVICE_NAME?.trim()) ||
    /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  return {
    resourceAttributes: {
      ...(named ? {} : { 'service.name': serviceName }),
      'service.version': serviceVersion,
    },
    // Metrics are Prometheus' (/metrics) and logs pino's: the SDK exports traces only.
    metricReaders: [],
    logRecordProcessors: [],
  };
}

/**
 * Starts the OpenTelemetry SDK as the OTEL_* variables configure it (exporter, protocol, endpoint,
 * sampler, propagators, resource attributes), or does nothing when they ask for no traces. No
 * library is patched: spans are made explicitly at fincore's boundaries, so starting before the
 * Nest application is created is early enough.
 */
export function startTracing(
  serviceName: string,
  serviceVersion: string,
  env: NodeJS.ProcessEnv = process.env,
): Tracing | undefined {
  if (!tracingRequested(env)) return undefined;
  // Loaded only when asked for: an app without tracing pays neither the load time nor the memory.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const started = sdk.startNodeSdk(sdkOptions(serviceName, serviceVersion, env));
  active = true;
  return {
    shutdown: async () => {
      active = false;
      await started.shutdown();
    },
  };
}
