import { eventually } from './support/http';
import {
  expectNotReady,
  expectOutageLoggedQuietly,
  expectPersonsStored,
  expectReadyAgain,
  isDependencyUnavailable,
  OutageWorld,
  personStreams,
  startOutageWorld,
  Stream,
  throughFault,
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

  it(
    'answers 2xx or 503 while PostgreSQL restarts, and serves again without an app restart',
    () => throughFault(streams, 'restart', LIMIT_MS, () => world.postgres.restart()),
    60_000,
  );

  it(
    'answers 503 within the bounds while PostgreSQL is frozen, is not ready, and recovers after the thaw',
    () =>
      throughFault(streams, 'freeze', LIMIT_MS, async (traffic) => {
        const frozenAt = Date.now();
        await world.postgres.freeze();
        try {
          await expectNotReady(world.sut.url, 'postgres');
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
        await expectReadyAgain(world.sut.url);
      }),
    60_000,
  );

  it('keeps every write it acknowledged', () => expectPersonsStored(world, acknowledged));

  it('logs a failed readiness probe as one warning, and an outage never as an unexpected error', () =>
    expectOutageLoggedQuietly(world.sut, 'postgres'));
});
