import { eventually } from './support/http';
import {
  expectPersonsStored,
  expectSuccessOrDependencyUnavailable,
  logLines,
  OUTAGE_BOUNDS,
  OutageWorld,
  personStreams,
  readiness,
  startOutageWorld,
  Stream,
  Traffic,
} from './support/outage';

/**
 * A request makes at most a few Redis round trips one after the other (rate limit, login throttle),
 * each bounded by the command timeout; plus 3 s.
 */
const LIMIT_MS = 4 * Number(OUTAGE_BOUNDS.REDIS_COMMAND_TIMEOUT_MS) + 3000;

describe('outage: Redis restarts and freezes', () => {
  let world: OutageWorld, streams: Record<string, Stream>, acknowledged: string[];
  beforeAll(async () => {
    world = await startOutageWorld();
    ({ streams, acknowledged } = await personStreams(world.api));
  }, 60_000);
  afterAll(() => world?.close());

  it('answers 2xx or 503 while Redis restarts empty, and serves again without an app restart', async () => {
    const traffic = Traffic.start(streams);
    try {
      await traffic.flowing('requests to succeed before the restart');
      await world.redis.restart();
      await traffic.flowing('requests to succeed after the restart');
    } finally {
      await traffic.stop();
    }
    expectSuccessOrDependencyUnavailable(traffic.answers, LIMIT_MS);
  }, 60_000);

  it('answers 2xx or 503 within the bounds while Redis is frozen, is not ready, and recovers after the thaw', async () => {
    const traffic = Traffic.start(streams);
    try {
      await traffic.flowing('requests to succeed before the freeze');
      const frozenAt = Date.now();
      world.redis.freeze();
      try {
        const notReady = await readiness(world.sut.url);
        expect(notReady.status).toBe(503);
        expect(notReady.body).toMatchObject({
          status: 'error',
          info: { postgres: { status: 'up' } },
          error: { redis: { status: 'down' } },
          details: { postgres: { status: 'up' }, redis: { status: 'down' } },
        });
        // Every stream went through the frozen Redis a few times.
        await eventually(
          () =>
            Object.keys(streams).every(
              (s) => traffic.since(frozenAt).filter((a) => a.stream === s).length >= 3,
            ),
          { timeoutMs: 30_000, what: 'every stream to answer while frozen' },
        );
      } finally {
        world.redis.thaw();
      }
      await eventually(async () => (await readiness(world.sut.url)).status === 200, {
        timeoutMs: 15_000,
        what: 'readiness after the thaw',
      });
      await traffic.flowing('requests to succeed after the thaw');
    } finally {
      await traffic.stop();
    }
    expectSuccessOrDependencyUnavailable(traffic.answers, LIMIT_MS);
  }, 60_000);

  it('keeps every write it acknowledged', () => expectPersonsStored(world, acknowledged));

  it('logs a failed readiness probe as one warning, and an outage never as an unexpected error', () => {
    const notReady = logLines(world.sut, 'Not ready: redis');
    expect(notReady.length).toBeGreaterThan(0);
    for (const line of notReady) {
      expect(JSON.parse(line)).toMatchObject({ level: 40 });
      expect(line).not.toContain('"stack"');
    }
    expect(logLines(world.sut, 'Unexpected error')).toEqual([]);
  });
});
