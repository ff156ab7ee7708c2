/** Benchmark settings, from the environment (all optional). */
function intFrom(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function intListFrom(name: string, fallback: number[]): number[] {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const values = raw.split(',').map((s) => Number(s.trim()));
  if (!values.every((v) => Number.isInteger(v) && v >= 1))
    throw new Error(`${name} must be comma-separated integers >= 1, got "${raw}"`);
  return [...new Set(values)].sort((a, b) => a - b);
}

function listFrom(name: string, known: string[]): string[] {
  const raw = process.env[name]?.trim();
  if (!raw) return known;
  const values = raw.split(',').map((s) => s.trim());
  const unknown = values.filter((v) => !known.includes(v));
  if (unknown.length) throw new Error(`${name} takes ${known.join(', ')}; got "${unknown.join(', ')}"`);
  return known.filter((k) => values.includes(k));
}

function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number > 0, got "${raw}"`);
  return value;
}

export interface BenchSettings {
  /** Seconds of measured load per HTTP scenario and system. */
  seconds: number;
  /** Seconds of unmeasured warm-up load before each measurement. */
  warmupSeconds: number;
  /** Concurrent HTTP connections of the load generator. */
  connections: number;
  /** State changes driven in the events -> webhooks scenario (one per person). */
  events: number;
  /** Concurrent requests while driving those state changes. */
  eventConnections: number;
  /** Person changes of the fan-out scenario (each delivered to 10 endpoints). */
  fanoutEvents: number;
  /** Person changes sent one at a time in the events-serial scenario. */
  serialEvents: number;
  /** Share of the baseline's delivery capacity offered in the fixed-rate scenario. */
  ratePercent: number;
  /** Longest wait for the webhooks of the events scenario, in seconds. */
  eventTimeoutSeconds: number;
  /** Events of the flooding tenant in the fairness scenario: its backlog. */
  fairnessBacklog: number;
  /** Changes the quiet tenant sends one at a time, with and without the other's backlog. */
  fairnessEvents: number;
  /** Cards the settings changes are spread over (few cards = lock contention on purpose). */
  cards: number;
  /** Events per point of the cost curves over endpoints per event and payload size. */
  costEvents: number;
  /** Tenant counts of the cost curve over tenants (each point shares the same total load). */
  costTenants: number[];
  /** Which cost curves run (endpoints, payload, tenants), all by default. */
  costCurves: string[];
  /** Pending deliveries of the backlog scenario's endpoint (meant to be run with 1,000,000). */
  backlog: number;
  /** Longest wait for the backlog to drain once its endpoint answers, in seconds. */
  backlogTimeoutSeconds: number;
  /** Where to write the cost curves as an SVG chart; none when unset. */
  chart: string | null;
  /** Scenarios to run (comma-separated names), all by default. */
  only: Set<string> | null;
  adminDatabaseUrl: string;
  redisUrl: string;
  /** LOG_LEVEL of the fincore processes (their stdout goes to /dev/null). */
  logLevel: string;
  /** Keep the database and Redis keys afterwards, for inspection. */
  keep: boolean;
}

export function loadBenchSettings(): BenchSettings {
  const only = process.env.BENCH_ONLY?.trim();
  return {
    seconds: intFrom('BENCH_SECONDS', 10),
    warmupSeconds: intFrom('BENCH_WARMUP_SECONDS', 3, 0),
    connections: intFrom('BENCH_CONNECTIONS', 20),
    events: intFrom('BENCH_EVENTS', 2000),
    eventConnections: intFrom('BENCH_EVENT_CONNECTIONS', 10),
    fanoutEvents: intFrom('BENCH_FANOUT_EVENTS', 200),
    serialEvents: intFrom('BENCH_SERIAL_EVENTS', 200),
    ratePercent: intFrom('BENCH_RATE_PERCENT', 70),
    eventTimeoutSeconds: intFrom('BENCH_EVENT_TIMEOUT_SECONDS', 60),
    fairnessBacklog: intFrom('BENCH_FAIRNESS_BACKLOG', 5000),
    fairnessEvents: intFrom('BENCH_FAIRNESS_EVENTS', 40),
    cards: intFrom('BENCH_CARDS', 200),
    costEvents: intFrom('BENCH_COST_EVENTS', 200),
    costTenants: intListFrom('BENCH_COST_TENANTS', [1, 100, 1000]),
    costCurves: listFrom('BENCH_COST_CURVES', ['endpoints', 'payload', 'tenants']),
    backlog: intFrom('BENCH_BACKLOG', 2000, 20),
    backlogTimeoutSeconds: intFrom('BENCH_BACKLOG_TIMEOUT_SECONDS', 120),
    chart: process.env.BENCH_CHART?.trim() || null,
    only: only
      ? new Set(
          only
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        )
      : null,
    adminDatabaseUrl: process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
    keep: process.env.BENCH_KEEP === '1',
  };
}

/** Load must stay on this machine: refuse anything but loopback addresses. */
export function assertLoopback(url: string, what: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    throw new Error(
      `${what} must point at 127.0.0.1 (the benchmark loads only the local machine), got ${host}`,
    );
  }
}

/** Settings of `npm run soak`, on top of the benchmark's (database, Redis, log level, keep). */
export interface SoakSettings extends BenchSettings {
  /** Minutes of steady traffic. */
  minutes: number;
  /** Person changes (each one PERSON_UPDATED event) per second. */
  eventsPerSecond: number;
  /** OUTBOX_RETENTION_DAYS and DELIVERY_RETENTION_DAYS of the run, in seconds. */
  retentionSeconds: number;
  /** RETENTION_INTERVAL_MS of the run, in seconds. */
  retentionIntervalSeconds: number;
  /** Seconds between two samples of the table sizes. */
  sampleSeconds: number;
  /** Persons the changes rotate over. */
  persons: number;
  /** Events of the measurement of database writes per event, before the soak. */
  writeSampleEvents: number;
  /**
   * Where the server's autovacuum is off, the soak vacuums the retained tables itself this often,
   * as autovacuum would; 0 never does.
   */
  vacuumSeconds: number;
}

export function loadSoakSettings(): SoakSettings {
  return {
    ...loadBenchSettings(),
    minutes: numberFrom('SOAK_MINUTES', 4),
    eventsPerSecond: numberFrom('SOAK_EVENTS_PER_SECOND', 20),
    retentionSeconds: numberFrom('SOAK_RETENTION_SECONDS', 30),
    retentionIntervalSeconds: numberFrom('SOAK_RETENTION_INTERVAL_SECONDS', 5),
    sampleSeconds: numberFrom('SOAK_SAMPLE_SECONDS', 5),
    persons: intFrom('SOAK_PERSONS', 200),
    writeSampleEvents: intFrom('SOAK_WRITE_SAMPLE_EVENTS', 200),
    vacuumSeconds: intFrom('SOAK_VACUUM_SECONDS', 30, 0),
  };
}
