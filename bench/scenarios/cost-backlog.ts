import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  WebhookDeliveryAdminRepository,
  WebhookDeliveryAttemptRepository,
  WebhookDeliveryFanOutRepository,
} from '@fincore/notifications';
import { appendBacklog, explainAnalyze, RecordedStatement, statementsOf } from '../drivers/backlog';
import { subscribeWebhooks } from '../drivers/events';
import { CpuMeter } from '../support/cpu-meter';
import { BENCH_ROOT, BenchProcess, sleep } from '../support/processes';
import { TimingReceiver } from '../support/receiver';
import type { Client } from 'pg';
import { Metric } from '../support/report';
import { BenchWorld } from '../support/world';
import { BenchContext, log, reason, Scenario } from './scenario';

const PATH = '/backlog';
/** The reconciler's page size (DeliveryReconciler). */
const RECONCILE_PAGE = 500;
/** WEBHOOK_TIMEOUT_MS by default: the reconciler leaves never-attempted deliveries younger than twice it alone. */
const ATTEMPT_TIMEOUT_MS = 10_000;

interface Explained {
  statement: string;
  size: number;
  executionMs: number;
  plan: string;
}

/** The statements a backlog makes expensive, as the product sends them, with what they need to run. */
async function statementsAt(world: BenchWorld, endpointId: string) {
  const middle = await world.query<{ id: string; created_at: Date }>(
    `SELECT id, created_at FROM notifications.webhook_deliveries WHERE endpoint_id = $1
      ORDER BY created_at, id OFFSET (SELECT count(*) / 2 FROM notifications.webhook_deliveries WHERE endpoint_id = $1)
      LIMIT 1`,
    [endpointId],
  );
  const since = new Date(Date.now() - 2 * ATTEMPT_TIMEOUT_MS);
  const page = (after: { createdAt: Date; id: string }) =>
    statementsOf((db) => new WebhookDeliveryAdminRepository(db).pagePending(after, RECONCILE_PAGE, since));
  const eventId = randomUUID();
  const [[first], [fromMiddle], [read], [claim]] = await Promise.all([
    page({ createdAt: new Date(0), id: '00000000-0000-0000-0000-000000000000' }),
    page({ createdAt: middle[0].created_at, id: middle[0].id }),
    statementsOf((db) => new WebhookDeliveryAttemptRepository(db).findForAttempt(middle[0].id)),
    statementsOf((db) =>
      new WebhookDeliveryFanOutRepository(db).claimEventAndCreateDeliveries(eventId, new Date()),
    ),
  ]);
  return { first, fromMiddle, read, claim, eventId };
}

async function explainAll(world: BenchWorld, tenantCode: string, endpointId: string, size: number) {
  await world.analyze();
  const s = await statementsAt(world, endpointId);
  // The claim needs an event of the tenant to fan out: one more, inside the rolled-back transaction.
  const withEvent = (id: string) => async (client: Client) => {
    await client.query(
      `INSERT INTO events.outbox (id, type, tenant_code, occurred_at, data, subject_type, subject_id, published_at, publish_attempts)
       VALUES ($1, 'PERSON_UPDATED', $2, now(), '{"personId":"backlog-new","changedFields":["lastName"]}', 'person', 'backlog-new', now(), 1)`,
      [id, tenantCode],
    );
  };
  const runs: Array<[string, RecordedStatement, ((c: Client) => Promise<void>)?]> = [
    [`reconciler: first page of ${RECONCILE_PAGE} pending`, s.first],
    [`reconciler: page of ${RECONCILE_PAGE} from the middle`, s.fromMiddle],
    ['delivery job: read for the attempt', s.read],
    ['fan-out: claim of a new event (one statement)', s.claim, withEvent(s.eventId)],
  ];
  const out: Explained[] = [];
  for (const [statement, recorded, before] of runs)
    out.push({ statement, size, ...(await explainAnalyze(world, recorded, before)) });
  return out;
}

const ms = (scenario: string, name: string, value: number, notes?: string[]): Metric => ({
  scenario,
  name,
  unit: 'ms',
  higherIsBetter: false,
  fincore: Number.isFinite(value) ? value : null,
  baseline: null,
  notMeasured: 'no baseline for this scenario',
  notes,
});

/**
 * A tenant's endpoint was down: `BENCH_BACKLOG` pending deliveries piled up (written in bulk as the
 * fan-out writes them). EXPLAIN (ANALYZE, BUFFERS) of the reconciler's page, the delivery job's read
 * and the fan-out's claim at a tenth of the backlog and at all of it; then the notifier starts with
 * the endpoint answering, and the backlog's drain is timed and its CPU per webhook measured.
 */
export const costBacklog: Scenario = {
  name: 'cost-backlog',
  async run(ctx: BenchContext): Promise<Metric[]> {
    const { settings, systems, world } = ctx;
    const scenario = 'cost-backlog';
    const receiver = await TimingReceiver.start();
    const processes: BenchProcess[] = [];
    try {
      const notifications = await systems.startFincore('notification-api');
      processes.push(notifications);
      const tenant = await world.createTenant();
      await subscribeWebhooks(notifications.url, tenant, `${receiver.url}${PATH}`);
      const [{ id: endpointId }] = await world.query<{ id: string }>(
        `SELECT e.id FROM notifications.webhook_endpoints e JOIN platform.tenants t ON t.id = e.tenant_id WHERE t.code = $1`,
        [tenant.code],
      );
      const n = settings.backlog;
      const explained: Explained[] = [];
      let done = 0;
      for (const size of [Math.ceil(n / 10), n]) {
        const started = Date.now();
        await appendBacklog(world, tenant, endpointId, done, size);
        done = size;
        log(
          `cost-backlog: ${size} pending deliveries (${((Date.now() - started) / 1000).toFixed(0)} s to write)`,
        );
        explained.push(...(await explainAll(world, tenant.code, endpointId, size)));
      }
      const file = join(
        BENCH_ROOT,
        '..',
        'bench',
        'results',
        `backlog-plans-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`,
      );
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(
        file,
        explained.map((e) => `## ${e.statement}, ${e.size} pending\n${e.plan}\n`).join('\n'),
      );
      log(`cost-backlog: plans written to ${file}`);

      const meter = new CpuMeter(world, processes);
      const { result: drain, cpu } = await meter.measure(async () => {
        const started = performance.now();
        processes.push(await systems.startFincore('notifier'));
        const arrived = receiver.on(PATH);
        const deadline = started + settings.backlogTimeoutSeconds * 1000;
        while (arrived.size < n && performance.now() < deadline) await sleep(200);
        // A loop: spreading a million arrival times into Math.min would overflow the call stack.
        let [first, last] = [Infinity, started];
        for (const at of arrived.values()) [first, last] = [Math.min(first, at), Math.max(last, at)];
        return { started, delivered: arrived.size, first, last };
      });
      const complete = drain.delivered === n;
      const rate = drain.delivered / ((drain.last - drain.started) / 1000);
      const notes = [
        `${drain.delivered}/${n} webhooks within ${settings.backlogTimeoutSeconds} s of starting the notifier` +
          (complete ? '' : ' — INCOMPLETE') +
          `; first after ${((drain.first - drain.started) / 1000).toFixed(1)} s; CPU ms per webhook: ` +
          Object.entries(cpu.processes)
            .map(([name, spent]) => `${name} ${(spent / drain.delivered).toFixed(2)}`)
            .join(', ') +
          `, PostgreSQL backends ${(cpu.postgres / drain.delivered).toFixed(2)}`,
        `plans: ${file}`,
      ];
      return [
        {
          scenario,
          name: `backlog of ${n} drained: webhooks delivered/s`,
          unit: '/s',
          higherIsBetter: true,
          fincore: drain.delivered ? rate : null,
          baseline: null,
          notMeasured: 'no baseline for this scenario',
          notes,
          suspect: !complete,
        },
        ms(scenario, '  CPU per webhook while draining', cpu.total / drain.delivered),
        ...explained.map((e) => ms(scenario, `  ${e.statement}, ${e.size} pending`, e.executionMs)),
      ];
    } catch (error) {
      log(`cost-backlog: not measured: ${reason(error)}`);
      return [
        {
          ...ms(scenario, 'backlog drained: webhooks delivered/s', NaN),
          unit: '/s',
          notMeasured: reason(error),
        },
      ];
    } finally {
      await receiver.close();
      for (const p of processes) await systems.stop(p);
    }
  },
};
