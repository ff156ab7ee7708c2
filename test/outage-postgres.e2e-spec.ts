import { eventually } from './support/http';
import {
  expectPersonsStored,
  expectSuccessOrDependencyUnavailable,
  isDependencyUnavailable,
  logLines,
  OutageWorld,
  personStreams,
  readiness,
  startOutageWorld,
  Stream,
  Traffic,
} from './support/outage';

/** Acquire, then a statement plus the 1 s the client waits beyond it for a silent server, plus 3 s. */
const LIMIT_MS = 1000 + 1000 + 1000 + 3000;

describe('outage: PostgreSQL restarts and freezes', () => {
  let world: OutageWorld, streams: Record<string, Stream>, acknowledged: string[];
  beforeAll(async () => {
    world = await startOutageWorld();
    // Authentication included: a check the outage cut short must not count against the username.
    ({ streams, acknowledged } = await personStreams(world.api));
  }, 60_000);
  afterAll(() => world?.close());

  it('answers 2xx or 503 while PostgreSQL restarts, and serves again without an app restart', async () => {
    const traffic = Traffic.start(streams);
    try {
      await traffic.flowing('requests to succeed before the restart');
      await world.postgres.restart();
      await traffic.flowing('requests to succeed after the restart');
    } finally {
      await traffic.stop();
    }
    expectSuccessOrDependencyUnavailable(traffic.answers, LIMIT_MS);
  }, 60_000);

  it('answers 503 within the bounds while PostgreSQL is frozen, is not ready, and recovers after the thaw', async () => {
    const traffic = Traffic.start(streams);
    try {
      await traffic.flowing('requests to succeed before the freeze');
      const frozenAt = Date.now();
      await world.postgres.freeze();
      try {
        const notReady = await readiness(world.sut.url);
        expect(notReady.status).toBe(503);
        expect(notReady.body).toMatchObject({
          status: 'error',
          info: { redis: { status: 'up' } },
          error: { postgres: { status: 'down' } },
          details: { postgres: { status: 'down' }, redis: { status: 'up' } },
        });
        await eventually(
          () =>
            Object.keys(streams).every((s) =>
              traffic.since(frozenAt).some((a) => a.stream === s && isDependencyUnavailable(a)),
            ),
          { timeoutMs: LIMIT_MS, what: 'every stream to answer 503 while frozen' },
        );
      } finally {
        world.postgres.thaw();
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
    const notReady = logLines(world.sut, 'Not ready: postgres');
    expect(notReady.length).toBeGreaterThan(0);
    for (const line of notReady) {
      expect(JSON.parse(line)).toMatchObject({ level: 40 });
      expect(line).not.toContain('"stack"');
    }
    expect(logLines(world.sut, 'Unexpected error')).toEqual([]);
  });
});
