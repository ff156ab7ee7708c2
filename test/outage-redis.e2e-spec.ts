import { eventually } from './support/http';
import {
  expectNotReady,
  expectOutageLoggedQuietly,
  expectPersonsStored,
  expectReadyAgain,
  OUTAGE_BOUNDS,
  OutageWorld,
  personStreams,
  startOutageWorld,
  Stream,
  throughFault,
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

  it(
    'answers 2xx or 503 while Redis restarts empty, and serves again without an app restart',
    () => throughFault(streams, 'restart', LIMIT_MS, () => world.redis.restart()),
    60_000,
  );

  it(
    'answers 2xx or 503 within the bounds while Redis is frozen, is not ready, and recovers after the thaw',
    () =>
      throughFault(streams, 'freeze', LIMIT_MS, async (traffic) => {
        const frozenAt = Date.now();
        world.redis.freeze();
        try {
          await expectNotReady(world.sut.url, 'redis');
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
        await expectReadyAgain(world.sut.url);
      }),
    60_000,
  );

  it('keeps every write it acknowledged', () => expectPersonsStored(world, acknowledged));

  it('logs a failed readiness probe as one warning, and an outage never as an unexpected error', () =>
    expectOutageLoggedQuietly(world.sut, 'redis'));
});
