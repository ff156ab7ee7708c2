import { eventually } from './support/http';
import {
  expectNotReady,
  expectReadyAgain,
  isDependencyUnavailable,
  OUTAGE_BOUNDS,
  statusCounts,
  Stream,
  throughFault,
  Traffic,
} from './support/outage';
import {
  Acknowledged,
  expectNothingHalfWritten,
  SpecOperationsWorld,
  specOperationStreams,
  startSpecOperationsWorld,
} from './support/spec-operations';

/** Acquire, then a statement plus the 1 s the client waits beyond it for a silent server, plus 3 s. */
const POSTGRES_LIMIT_MS = 1000 + 1000 + 1000 + 3000;
/** A few Redis round trips one after the other, each bounded by the command timeout; plus 3 s. */
const REDIS_LIMIT_MS = 4 * Number(OUTAGE_BOUNDS.REDIS_COMMAND_TIMEOUT_MS) + 3000;

type Fault = (world: SpecOperationsWorld, traffic: Traffic, streams: string[]) => Promise<void>;

/**
 * Holds the dependency frozen until every app said it is not ready and every stream answered a
 * few times (with a 503 each, when `everyStream503`), then thaws it and waits for readiness.
 */
const frozen =
  (dependency: 'postgres' | 'redis', everyStream503: boolean): Fault =>
  async (world, traffic, streams) => {
    const frozenAt = Date.now();
    const service = world[dependency];
    await service.freeze();
    try {
      for (const app of world.apps) await expectNotReady(app.url, dependency);
      await eventually(
        () =>
          streams.every((s) => {
            const answers = traffic.since(frozenAt).filter((a) => a.stream === s);
            return answers.length >= 3 && (!everyStream503 || answers.some(isDependencyUnavailable));
          }),
        { timeoutMs: 30_000, what: 'every stream to answer while frozen' },
      );
    } finally {
      service.thaw();
    }
    for (const app of world.apps) await expectReadyAgain(app.url);
  };

const faults: Array<[string, number, Fault]> = [
  ['PostgreSQL restarts', POSTGRES_LIMIT_MS, (world) => world.postgres.restart()],
  ['PostgreSQL freezes', POSTGRES_LIMIT_MS, frozen('postgres', true)],
  ['Redis restarts empty', REDIS_LIMIT_MS, (world) => world.redis.restart()],
  ['Redis freezes', REDIS_LIMIT_MS, frozen('redis', false)],
];

describe('outage: the four spec operations through PostgreSQL and Redis outages', () => {
  let world: SpecOperationsWorld, streams: Record<string, Stream>, acknowledged: Acknowledged;
  beforeAll(async () => {
    world = await startSpecOperationsWorld();
    ({ streams, acknowledged } = await specOperationStreams(world));
  }, 120_000);
  afterAll(() => world?.close());

  it.each(faults)(
    'invalidate, settings change, calculate-fees and enable answer 2xx or 503 while %s, and serve again without a restart',
    async (name, limitMs, fault) => {
      const answers = await throughFault(streams, name, limitMs, (traffic) =>
        fault(world, traffic, Object.keys(streams)),
      );
      process.stdout.write(`[outage] ${name}: ${JSON.stringify(statusCounts(answers))}\n`);
    },
    90_000,
  );

  it('left nothing half-written: person with outbox, card with history and outbox', async () => {
    await expectNothingHalfWritten(world, await world.stack.db(), acknowledged);
    process.stdout.write(
      `[outage] ${acknowledged.invalidated.length} invalidations acknowledged; settings changes per card: ` +
        `${JSON.stringify(acknowledged.settingsChanged)}\n`,
    );
  });

  it('logged no outage as an unexpected error', () => {
    for (const app of world.apps) expect(app.output()).not.toContain('Unexpected error');
  });
});
