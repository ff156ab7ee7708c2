import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import type { DomainEventJob } from '@fincore/events';
import { eventually } from '../support/http';
import { expectLedger } from './support/expect-ledger';
import { FaultWorld } from './support/fault-world';

/**
 * Fan-out jobs run out of attempts: they wait in a paused domain-events queue, PostgreSQL stops,
 * and the notifier takes them up and fails each one twice (DOMAIN_EVENT_ATTEMPTS=2) into BullMQ's
 * failed set. Once PostgreSQL is back, only the outbox reconciler can bring them back.
 */
describe('faults: fan-out jobs driven to failed', () => {
  let world: FaultWorld;
  let queue: Queue<DomainEventJob>;

  beforeAll(async () => {
    world = await FaultWorld.start({ settings: { DOMAIN_EVENT_ATTEMPTS: '2' } });
    queue = world.domainEvents();
  });
  afterAll(async () => {
    await queue?.close();
    await world?.close();
  });

  it('the outbox reconciler retries failed jobs and every acknowledged change is delivered', async () => {
    await queue.pause();
    const stream = world.changes();
    await sleep(5000);
    await stream.stop();
    const backlog = stream.acknowledged.size;
    // Fan-out jobs carry a priority (their tenant's burst), so they wait in the prioritized set.
    await eventually(async () => (await queue.getJobCountByTypes('waiting', 'prioritized')) >= backlog, {
      what: `${backlog} fan-out jobs waiting in the paused queue`,
    });

    const failed = await world.fault('PostgreSQL stopped', 'all', async () => {
      await world.postgres.stop();
      try {
        await queue.resume();
        return await eventually(
          async () => {
            const n = await queue.getFailedCount();
            return n >= backlog ? n : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 250, what: `${backlog} fan-out jobs in the failed set` },
        );
      } finally {
        await world.postgres.restart();
      }
    });

    const settled = await world.settle('6 fan-out jobs driven to failed', stream);
    expectLedger(settled, stream, {
      statuses: [200],
      evidence: { 'fan-out jobs failed': failed },
      atLeast: 50,
    });
    expect(await queue.getFailedCount()).toBe(0);
  });
});
