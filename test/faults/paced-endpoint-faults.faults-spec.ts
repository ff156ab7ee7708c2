import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { arrivalsDuringPauses, busiestWindow, Stretch } from '../support/paced-webhooks';
import { expectLedger } from './support/expect-ledger';
import { FaultWorld, LOST_JOBS } from './support/fault-world';

/**
 * One tenant, two endpoints on the receiver: P limited to RATE deliveries a second and signed v1
 * and v1a, F unlimited and signed v1a only. Under a steady stream the receiver answers P with 429
 * and Retry-After for a few seconds, both notifier replicas die by SIGKILL and come back, then
 * Redis restarts empty (the pacer's slots and pauses and BullMQ's jobs gone; PostgreSQL
 * reconciles). Every acknowledged change reaches both endpoints, every signature verifies as a
 * subscriber checks it (standardwebhooks for v1, node:crypto with the published key for v1a), P
 * never gets more than its rate in a second, and nothing reaches P while a Retry-After holds it.
 */
const RATE = 20;
const RETRY_AFTER_SECONDS = 3;
/**
 * Arrivals a one-second window at the receiver may hold beyond RATE. The notifier spaces its sends
 * 1000 / RATE ms apart; the receiver reads its clock when a request has arrived, in the test's own
 * event loop, and the two notifier processes send on busy cores too. A request held up for a
 * while lands next to the ones sent after it, so a window can count one or two of the
 * neighbouring window's requests; three (15 % at RATE 20, 150 ms of jitter) covers that, while a
 * lost limit shows as far more (F, unlimited, takes the stream's whole rate).
 */
const JITTER_ARRIVALS = 3;
/**
 * After answering 429 the receiver may still see the requests the notifier sent before it read
 * that answer and paused the endpoint in Redis: those arriving within this time of the 429.
 */
const IN_FLIGHT_MS = 1000;
const SETTLE_TIMEOUT_MS = 200_000;

describe('faults: paced endpoint under 429, notifier crash and Redis loss', () => {
  let world: FaultWorld;
  let pacedPath: string, unlimitedPath: string;

  beforeAll(async () => {
    world = await FaultWorld.start({
      notifiers: 2,
      endpoint: { rateLimit: RATE, signatureSchemes: ['v1', 'v1a'] },
    });
    pacedPath = world.endpoints[0].path;
    unlimitedPath = await world.addEndpoint('unlimited', { signatureSchemes: ['v1a'] });
  });
  afterAll(async () => {
    await world?.close();
  });

  it(
    'delivers every acknowledged change to both endpoints, P at its rate and never during a pause',
    async () => {
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      const stream = world.changes();
      await sleep(3000);
      world.receiver.setDefaultFor(pacedPath, {
        status: 429,
        headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
        body: 'slow down',
      });
      await sleep(4000);
      world.receiver.setDefaultFor(pacedPath, null);
      await sleep(2000);
      for (const notifier of [...world.notifiers]) await world.killNotifier(notifier);
      await world.startNotifier();
      await world.startNotifier();
      await sleep(2000);
      // Windows around the restart are left out: a send decided just before Redis went away may
      // arrive after it, next to the first send of a pacer that starts over with no state.
      const restart: Stretch = { from: Date.now(), to: 0 };
      await world.fault('Redis restarted empty', 'all', () => world.redis.restart());
      restart.to = Date.now();
      await sleep(3000);
      await stream.stop();

      const arrivals = (path: string) => world.receiver.received.filter((w) => w.path === path);
      const paced = () => busiestWindow(arrivals(pacedPath), 1000, [restart]);
      const pauses = () => arrivalsDuringPauses(arrivals(pacedPath), IN_FLIGHT_MS);
      const settled = await world.settle(
        '8 paced endpoint (429, notifiers SIGKILLed, Redis restarted empty)',
        stream,
        SETTLE_TIMEOUT_MS,
        () =>
          `P: busiest second ${paced().count} at ${RATE}/s, ${pauses().pausedBy} answered 429, ` +
          `${pauses().inFlight} in flight after one, ${pauses().breaches.length} during a pause; ` +
          `F: busiest second ${busiestWindow(arrivals(unlimitedPath), 1000).count}; ` +
          `test event loop delay max ${Math.round(loopDelay.max / 1e6)} ms`,
      );
      loopDelay.disable();
      expectLedger(settled, stream, {
        // The API's rate limiter keeps its budgets in Redis: while Redis restarts, a request may get 503.
        statuses: [200, 503],
        evidence: {
          ...world.killsMetWork(IN_FLIGHT_MS),
          'webhooks answered 429': pauses().pausedBy,
          'jobs the fault took from a worker or the reconcilers gave back': world.logLines(LOST_JOBS),
        },
      });
      // F is signed v1a only; P with both (the ledger checked each scheme it was given).
      const schemes = (path: string) =>
        new Set(
          arrivals(path).flatMap((w) =>
            String(w.headers['webhook-signature'])
              .split(' ')
              .map((s) => s.split(',')[0]),
          ),
        );
      expect([...schemes(unlimitedPath)]).toEqual(['v1a']);
      expect([...schemes(pacedPath)].sort()).toEqual(['v1', 'v1a']);

      expect(paced().count).toBeLessThanOrEqual(RATE + JITTER_ARRIVALS);
      expect(pauses().pausedBy).toBeGreaterThan(0);
      expect(
        pauses().breaches.map((w) => `${w.receivedAt.toISOString()} ${String(w.headers['webhook-id'])}`),
      ).toEqual([]);
    },
    120_000 + SETTLE_TIMEOUT_MS,
  );
});
