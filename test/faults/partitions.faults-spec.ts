import { setTimeout as sleep } from 'node:timers/promises';
import { QueueEvents } from 'bullmq';
import { QueueName, queuePrefix, redisConnectionOptions } from '@fincore/events';
import type { ChangeStream } from './support/change-stream';
import { expectLedger } from './support/expect-ledger';
import { FaultWorld, LOST_JOBS } from './support/fault-world';
import { LinkName, Place } from './support/network';

/**
 * Network partitions under a steady stream of changes, each scenario in a world whose credentials
 * API and notifiers run in network namespaces of their own (see PartitionNetwork): a link set down
 * drops packets without a reset, so connections hang as on a real partition rather than fail. No
 * process is restarted: the links come back and the world recovers by itself.
 */

/** Longer than a hung statement's bound (DATABASE_STATEMENT_TIMEOUT_MS + 1 s) and an enqueue's (3 s). */
const CUT_MS = 8000;
/** Longer than BullMQ's 30 s job lock: the cut notifier's jobs stall, for another worker to take up. */
const LOCK_CUT_MS = 35_000;
/** Few first attempts and job workers per notifier: the duplicate bound is 2 × 4 per struck notifier. */
const SETTINGS = { WEBHOOK_CONCURRENCY: '4' };
/** How long the receiver takes to answer: deliveries are in flight at any instant, for a cut to catch. */
const RECEIVER_DELAY_MS = 100;

/** domain-events jobs not yet run, read from the test's namespace, whose way to Redis no cut touches. */
async function eventsNotRun(world: FaultWorld): Promise<number> {
  const queue = world.domainEvents();
  try {
    const counts = await queue.getJobCounts('wait', 'prioritized', 'active', 'delayed');
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  } finally {
    await queue.close();
  }
}

/** Counts the jobs of both queues that BullMQ's stall check takes from a worker whose lock ran out. */
interface StallWatch {
  count: () => number;
  close: () => Promise<void>;
}

async function watchStalledJobs(world: FaultWorld): Promise<StallWatch> {
  let stalled = 0;
  const watchers = [QueueName.DomainEvents, QueueName.WebhookDeliveries].map((name) => {
    const events = new QueueEvents(name, {
      connection: redisConnectionOptions(world.stack.config.REDIS_URL),
      prefix: queuePrefix(world.stack.config.QUEUE_PREFIX),
    });
    events.on('stalled', () => stalled++);
    return events;
  });
  await Promise.all(watchers.map((w) => w.waitUntilReady()));
  return {
    count: () => stalled,
    close: async () => void (await Promise.all(watchers.map((w) => w.close()))),
  };
}

/**
 * Cuts `links` of `place` for `ms`, as a fault striking `notifiers` notifiers; answers what
 * `measure` finds just before the links come back up.
 */
async function partition(
  world: FaultWorld,
  label: string,
  notifiers: number,
  place: Place,
  links: LinkName[],
  ms: number,
  measure: () => Promise<number> = async () => 0,
): Promise<number> {
  return world.fault(label, notifiers, async () => {
    await world.network!.cut(place, links);
    try {
      await sleep(ms);
      return await measure();
    } finally {
      await world.network!.restore(place);
    }
  });
}

/** The evidence that the partition met the traffic, read once the world has settled. */
type Evidence = () => Record<string, number>;

interface Scenario {
  name: string;
  summary: string;
  notifiers: number;
  /** The receiver's answer time, when not RECEIVER_DELAY_MS. */
  receiverDelayMs?: number;
  /** Makes the partition while `stream` runs (which it may stop early). */
  cut(world: FaultWorld, stream: ChangeStream, stalled: StallWatch): Promise<Evidence>;
}

const notifierCutFrom =
  (link: LinkName, service: string): Scenario['cut'] =>
  async (world) => {
    const place = world.placeOf(world.notifiers[0]);
    const label = `notifier cut from ${service}`;
    const piled = await partition(world, label, 1, place, [link], CUT_MS, () => eventsNotRun(world));
    return () => ({ 'events queued and not run at the end of the cut': piled });
  };

const scenarios: Scenario[] = [
  {
    name: 'the notifier cut from Redis, not from PostgreSQL',
    summary: '12 notifier cut from Redis 8 s (link down)',
    notifiers: 1,
    cut: notifierCutFrom('redis', 'Redis'),
  },
  {
    name: 'the notifier cut from PostgreSQL, not from Redis',
    summary: '13 notifier cut from PostgreSQL 8 s (link down)',
    notifiers: 1,
    cut: notifierCutFrom('postgres', 'PostgreSQL'),
  },
  {
    // Commits go on; each enqueue after commit hangs until its timeout, and the relay publishes
    // those events once Redis answers again.
    name: 'the credentials API cut from Redis after commit',
    summary: '14 credentials-api cut from Redis 8 s (link down)',
    notifiers: 1,
    cut: async (world) => {
      const place = world.placeOf(world.credentialsApi);
      await partition(world, 'credentials-api cut from Redis', 0, place, ['redis'], CUT_MS);
      return () => ({
        'enqueues after commit that failed': world.logLines(/Publishing \d+ event\(s\) failed/),
      });
    },
  },
  {
    // The receiver answers slowly enough that each notifier's first attempts fill their slots and
    // its delivery jobs are active at the cut. The stream stops 5 s into the cut: the other
    // notifier shows it takes the traffic alone, and fewer changes keep the scenario short.
    name: 'one of two notifiers cut from everything beyond the job lock',
    summary: '15 one of two notifiers cut from everything 35 s (link down)',
    notifiers: 2,
    receiverDelayMs: 400,
    cut: async (world, stream, stalled) => {
      const place = world.placeOf(world.notifiers[0]);
      const links: LinkName[] = ['postgres', 'redis', 'http'];
      await Promise.all([
        partition(world, 'notifier cut from everything', 1, place, links, LOCK_CUT_MS),
        sleep(5000).then(() => stream.stop()),
      ]);
      return () => ({
        'jobs whose lock ran out, taken up by the stall check': stalled.count(),
        'jobs and first attempts given back by a reconciler or lost under a worker':
          world.logLines(LOST_JOBS),
      });
    },
  },
];

describe.each(scenarios)('faults: partition, $name', (scenario) => {
  let world: FaultWorld;
  let stalled: StallWatch | undefined;

  beforeAll(async () => {
    world = await FaultWorld.start({ partitioned: true, notifiers: scenario.notifiers, settings: SETTINGS });
    world.receiver.setDefault({
      status: 200,
      body: 'ok',
      delayMs: scenario.receiverDelayMs ?? RECEIVER_DELAY_MS,
    });
    stalled = await watchStalledJobs(world);
  });
  afterAll(async () => {
    await stalled?.close();
    await world?.close();
  });

  it('delivers every committed change once the link is back, without a restart', async () => {
    const stream = world.changes();
    await sleep(3000);
    const evidence = await scenario.cut(world, stream, stalled!);
    await sleep(3000);
    await stream.stop();

    const settled = await world.settle(scenario.summary, stream);
    expect(stream.unexpected).toEqual([]);
    expectLedger(settled, stream, { statuses: [200], evidence: evidence() });
  });
});
