import { setTimeout as sleep } from 'node:timers/promises';
import { expectLedger } from './support/expect-ledger';
import { FaultWorld, LOST_JOBS } from './support/fault-world';

/**
 * Redis loses everything twice mid-stream: FLUSHALL, then a restart that comes back empty. Every
 * queued job is gone; PostgreSQL still knows every event and delivery.
 */
describe('faults: Redis flushed and restarted empty', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('delivers every acknowledged change from what PostgreSQL holds', async () => {
    const stream = world.changes();
    await sleep(4000);
    let flushedKeys = 0;
    await world.fault('Redis FLUSHALL', 'all', async () => {
      flushedKeys = await world.redis.flushAll();
    });
    await sleep(4000);
    await world.fault('Redis restarted empty', 'all', () => world.redis.restart());
    await sleep(4000);
    await stream.stop();

    const settled = await world.settle('3 Redis FLUSHALL, then restarted empty', stream);
    expectLedger(settled, stream, {
      // The API's rate limiter keeps its budgets in Redis: while Redis restarts, a request may get 503.
      statuses: [200, 503],
      // A notifier that keeps up leaves no job waiting at the instant of the flush; the queues'
      // keys the traffic made (job ids, events, finished jobs) are what the flush takes then.
      evidence: {
        'queue keys the flush removed, jobs it took from a worker or the reconcilers gave back':
          flushedKeys + world.logLines(LOST_JOBS),
      },
    });
  });
});
