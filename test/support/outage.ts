import { personInput } from './builders/persons';
import { selectRows } from './db';
import { ApiClient, ApiResponse, eventually, expectStatus } from './http';
import { OwnedPostgres, OwnedRedis } from './owned';
import { SpawnedApp, TenantFixture, TestStack } from './stack';

/** One answer of a request stream, as the outage assertions need it. */
export interface Answer {
  stream: string;
  /** 0 when no HTTP answer came at all (connection error or no answer within the give-up time). */
  status: number;
  ms: number;
  startedAt: number;
  contentType: string | null;
  retryAfter: string | null;
  code?: string;
  error?: string;
}

export type Stream = () => Promise<ApiResponse>;

/**
 * Steady request streams against an app while a test breaks its dependencies: each stream runs in
 * `concurrency` loops, one request after the other, until `stop()`; every answer is kept.
 */
export class Traffic {
  readonly answers: Answer[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];

  private constructor(
    private readonly streams: string[],
    private readonly giveUpMs: number,
  ) {}

  static start(streams: Record<string, Stream>, options: { concurrency?: number; giveUpMs?: number } = {}) {
    const traffic = new Traffic(Object.keys(streams), options.giveUpMs ?? 30_000);
    for (const [name, stream] of Object.entries(streams)) {
      for (let i = 0; i < (options.concurrency ?? 2); i++) traffic.loops.push(traffic.loop(name, stream));
    }
    return traffic;
  }

  /** Resolves once every stream had a 2xx answer to a request started after this call. */
  async flowing(what: string, timeoutMs = 20_000): Promise<void> {
    const since = Date.now();
    const succeeded = (s: string) =>
      this.since(since).some((a) => a.stream === s && a.status >= 200 && a.status < 300);
    await eventually(() => this.streams.every(succeeded), { timeoutMs, intervalMs: 50, what }).catch(
      (error: Error) => {
        throw new Error(
          `${error.message}; answers since: ${JSON.stringify(statusCounts(this.since(since)))}`,
        );
      },
    );
  }

  /** Answers to requests started at or after `since`. */
  since(since: number): Answer[] {
    return this.answers.filter((a) => a.startedAt >= since);
  }

  async stop(): Promise<Answer[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.answers;
  }

  private async loop(name: string, stream: Stream): Promise<void> {
    while (this.running) {
      const startedAt = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const giveUp = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${this.giveUpMs} ms`)), this.giveUpMs);
      });
      try {
        const r = await Promise.race([stream(), giveUp]);
        this.answers.push({
          stream: name,
          status: r.status,
          ms: Date.now() - startedAt,
          startedAt,
          contentType: r.headers.get('content-type'),
          retryAfter: r.headers.get('retry-after'),
          code: (r.body as { code?: string } | undefined)?.code,
        });
      } catch (error) {
        this.answers.push({
          stream: name,
          status: 0,
          ms: Date.now() - startedAt,
          startedAt,
          contentType: null,
          retryAfter: null,
          error: (error as Error).message,
        });
      } finally {
        clearTimeout(timer);
      }
    }
  }
}

/** True for the one answer an outage may give instead of success. */
export function isDependencyUnavailable(a: Answer): boolean {
  return (
    a.status === 503 &&
    /^application\/problem\+json/.test(a.contentType ?? '') &&
    a.code === 'dependency_unavailable' &&
    /^\d+$/.test(a.retryAfter ?? '')
  );
}

/**
 * The outage contract: every answer is a success or a proper 503, and none took longer than
 * `limitMs`. Fails listing the offending answers.
 */
export function expectSuccessOrDependencyUnavailable(answers: Answer[], limitMs: number): void {
  expect(answers.length).toBeGreaterThan(0);
  const wrong = answers.filter((a) => !(a.status >= 200 && a.status < 300) && !isDependencyUnavailable(a));
  expect(wrong).toEqual([]);
  const slow = answers.filter((a) => a.ms >= limitMs);
  expect(slow).toEqual([]);
}

/** How the answers split by status, for a readable failure and a check that the outage was felt. */
export function statusCounts(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[`${a.stream} ${a.status}`] = (counts[`${a.stream} ${a.status}`] ?? 0) + 1;
  return counts;
}

/** `/health/ready` of an app, with its Terminus body. */
export async function readiness(url: string): Promise<{ status: number; body: Record<string, any> }> {
  const r = await fetch(`${url}/health/ready`);
  return { status: r.status, body: (await r.json()) as Record<string, any> };
}

/** Small bounds, so that an outage shows within a test's time. */
export const OUTAGE_BOUNDS = {
  DATABASE_STATEMENT_TIMEOUT_MS: '1000',
  DATABASE_LOCK_TIMEOUT_MS: '500',
  DATABASE_ACQUIRE_TIMEOUT_MS: '1000',
  REDIS_COMMAND_TIMEOUT_MS: '500',
};

export interface OutageWorld {
  postgres: OwnedPostgres;
  redis: OwnedRedis;
  stack: TestStack;
  /** The credentials API as its own process, logging warnings and errors. */
  sut: SpawnedApp;
  acme: TenantFixture;
  api: ApiClient;
  /** Closes everything, thawing first; safe after a failed start. */
  close(): Promise<void>;
}

/** The credentials API on a PostgreSQL and a Redis of the test's own, with OUTAGE_BOUNDS. */
export async function startOutageWorld(): Promise<OutageWorld> {
  const world: Partial<OutageWorld> = {};
  const close = async () => {
    world.postgres?.thaw();
    world.redis?.thaw();
    await world.stack?.close();
    await world.postgres?.close();
    await world.redis?.close();
  };
  try {
    world.postgres = await OwnedPostgres.start();
    world.redis = await OwnedRedis.start();
    world.stack = await TestStack.onOwnedServices(world.postgres, world.redis, OUTAGE_BOUNDS);
    world.acme = await world.stack.createTenant();
    world.sut = await world.stack.spawnApp('credentials-api', { LOG_LEVEL: 'warn' });
    world.api = new ApiClient(world.sut.url, world.acme.token);
    return { ...(world as OutageWorld), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Request streams of the credentials API: creating persons (the ids of those acknowledged are
 * kept), reading one, and authenticating as it.
 */
export async function personStreams(api: ApiClient): Promise<{
  streams: Record<string, Stream>;
  acknowledged: string[];
}> {
  const readable = personInput({}, 'readable');
  expectStatus(await api.post('/api/v1/persons', readable), 201, 'create the person to read');
  const acknowledged: string[] = [];
  const streams: Record<string, Stream> = {
    'create person': async () => {
      const person = personInput({}, 'outage');
      const r = await api.post('/api/v1/persons', person);
      if (r.status === 201) acknowledged.push(person.personId);
      return r;
    },
    'read person': () => api.get(`/api/v1/persons/${readable.personId}`),
    authenticate: () =>
      api.post('/api/v1/credentials/authenticate', {
        username: readable.username,
        password: readable.password,
      }),
  };
  return { streams, acknowledged };
}

/** Every acknowledged person creation is in the database. */
export async function expectPersonsStored(world: OutageWorld, personIds: string[]): Promise<void> {
  expect(personIds.length).toBeGreaterThan(0);
  const stored = await selectRows<{ person_id: string }>(
    await world.stack.db(),
    'credentials.persons',
    { tenant_id: world.acme.tenant.id },
    { columns: 'person_id' },
  );
  const storedIds = new Set(stored.map((row) => row.person_id));
  expect(personIds.filter((id) => !storedIds.has(id))).toEqual([]);
}

/** The app's log lines (pino JSON) that contain `text`. */
function logLines(app: SpawnedApp, text: string): string[] {
  return app
    .output()
    .split('\n')
    .filter((line) => line.includes(text));
}

/**
 * Keeps the streams flowing through `fault`: they must succeed before and after it, and every
 * answer meanwhile must keep the outage contract within `limitMs`.
 */
export async function throughFault(
  streams: Record<string, Stream>,
  what: string,
  limitMs: number,
  fault: (traffic: Traffic) => Promise<void>,
): Promise<Answer[]> {
  const traffic = Traffic.start(streams);
  try {
    await traffic.flowing(`requests to succeed before the ${what}`);
    await fault(traffic);
    await traffic.flowing(`requests to succeed after the ${what}`);
  } finally {
    await traffic.stop();
  }
  expectSuccessOrDependencyUnavailable(traffic.answers, limitMs);
  return traffic.answers;
}

type Dependency = 'postgres' | 'redis';

/** `/health/ready` says 503 with its body, naming `down` as the one dependency down. */
export async function expectNotReady(url: string, down: Dependency): Promise<void> {
  const up: Dependency = down === 'postgres' ? 'redis' : 'postgres';
  const notReady = await readiness(url);
  expect(notReady.status).toBe(503);
  expect(notReady.body).toMatchObject({
    status: 'error',
    info: { [up]: { status: 'up' } },
    error: { [down]: { status: 'down' } },
    details: { [up]: { status: 'up' }, [down]: { status: 'down' } },
  });
  // The same probe at scrape time, for alerts.
  expect(await dependencyUp(url)).toEqual({ [up]: 1, [down]: 0 });
}

/** `dependency_up` of an app's `/metrics`, by dependency. */
export async function dependencyUp(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Object.fromEntries(
    [...text.matchAll(/^dependency_up\{dependency="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
}

/** Ready again once the dependency is back, without restarting the app. */
export async function expectReadyAgain(url: string): Promise<void> {
  await eventually(async () => (await readiness(url)).status === 200, {
    timeoutMs: 15_000,
    what: 'readiness after the outage',
  });
  expect(await dependencyUp(url)).toEqual({ postgres: 1, redis: 1 });
}

/** Each failed readiness probe logged one warning without a stack; no outage as an unexpected error. */
export function expectOutageLoggedQuietly(app: SpawnedApp, down: Dependency): void {
  const notReady = logLines(app, `Not ready: ${down}`);
  expect(notReady.length).toBeGreaterThan(0);
  for (const line of notReady) {
    expect(JSON.parse(line)).toMatchObject({ level: 40 });
    expect(line).not.toContain('"stack"');
  }
  expect(logLines(app, 'Unexpected error')).toEqual([]);
}
