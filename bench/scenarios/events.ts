import { sleep } from '../support/processes';
import { TimingReceiver } from '../support/receiver';
import { Metric } from '../support/report';
import {
  driveEvents,
  EventRun,
  outboxDrained,
  personIds,
  provisionBaselinePersons,
  provisionFincorePersons,
  subscribeWebhooks,
  warmIds,
} from '../drivers/events';
import { CpuMeter, CpuSpent } from '../support/cpu-meter';
import { BenchProcess } from '../support/processes';
import { BenchContext, log, reason, Scenario } from './scenario';

/**
 * Person changes through the credentials API, each a PERSON_UPDATED webhook to one endpoint, in
 * both systems: webhooks delivered per second, API response -> webhook, and the notifier's memory.
 * Leaves its persons and the baseline's delivery rate to the scenarios after it.
 */
export const events: Scenario = { name: 'events', run };

async function run(ctx: BenchContext): Promise<Metric[]> {
  const { settings, systems, world, tenant } = ctx;
  const scenario = 'events';
  const ids = personIds(settings.events);
  const warm = warmIds(settings);
  const receiver = await TimingReceiver.start();
  const timeoutMs = settings.eventTimeoutSeconds * 1000;
  const drive = (url: string, path: string, list: string[]) =>
    driveEvents({
      url,
      token: tenant.token,
      ids: list,
      connections: settings.eventConnections,
      receiver,
      receiverPaths: [path],
      timeoutMs,
    });

  let fincore: EventRun | undefined;
  let fincoreCpu: CpuSpent | undefined;
  let baselineCpu: CpuSpent | undefined;
  let fincoreWhyNot: string | undefined;
  let notifierMemory: { idle: number; peak: number } | undefined;
  let deliveryNote: string | undefined;
  let fincorePersons = false;
  try {
    log('events: starting credentials-api, notification-api, notifier');
    const [credentials, notifications, notifier] = await Promise.all([
      systems.startFincore('credentials-api'),
      systems.startFincore('notification-api'),
      systems.startFincore('notifier'),
    ]);
    log(`events: creating ${ids.length + warm.length} persons through the credentials API`);
    await provisionFincorePersons(credentials.url, tenant, [...warm, ...ids]);
    fincorePersons = true;
    await subscribeWebhooks(notifications.url, tenant, `${receiver.url}/fincore`);
    if (!(await outboxDrained(world, 30_000)))
      throw new Error('the notifier did not handle the set-up events within 30 s');
    log(`events: fincore warm-up (${warm.length} changes), then ${ids.length} person changes -> webhooks`);
    await drive(credentials.url, '/fincore', warm);
    await world.analyze();
    const idle = notifier.memory()?.rss ?? NaN;
    const meter = await cpuMeter(ctx, [credentials, notifications, notifier]);
    ({ result: fincore, cpu: fincoreCpu } = await meter.measure(() =>
      drive(credentials.url, '/fincore', ids),
    ));
    if (fincore.complete) ctx.fincoreDelivered = fincore.deliveredPerSecond;
    notifierMemory = { idle, peak: notifier.memory()?.peak ?? NaN };
    // What the notifier recorded: every delivery should be SUCCEEDED once its webhook arrived.
    await sleep(2000);
    const records = await world.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM notifications.webhook_deliveries GROUP BY status ORDER BY status`,
    );
    const total = records.reduce((sum, r) => sum + r.n, 0);
    const succeeded = records.find((r) => r.status === 'SUCCEEDED')?.n ?? 0;
    if (succeeded !== total) {
      deliveryNote = `! fincore: only ${succeeded} of ${total} delivery rows are SUCCEEDED (${records.map((r) => `${r.status} ${r.n}`).join(', ')}) although the webhooks arrived; see the notifier's log (BENCH_CHILD_LOGS=<dir>)`;
    }
    for (const p of [credentials, notifications, notifier]) await systems.stop(p);
  } catch (error) {
    fincoreWhyNot = reason(error);
    log(`events: fincore not measured: ${fincoreWhyNot}`);
  }

  let baseline: EventRun | undefined;
  let workerMemory: { idle: number; peak: number } | undefined;
  try {
    log('events: baseline (bare Fastify + pg, bare BullMQ worker + got)');
    const worker = await systems.startBaselineWorker([`${receiver.url}/baseline`]);
    await provisionBaselinePersons(world, tenant, [...warm, ...ids]);
    if (fincorePersons) ctx.persons = [...warm, ...ids];
    await drive(ctx.baselineApi.url, '/baseline', warm);
    await world.analyze();
    const idle = worker.memory()?.rss ?? NaN;
    const meter = await cpuMeter(ctx, [ctx.baselineApi, worker]);
    ({ result: baseline, cpu: baselineCpu } = await meter.measure(() =>
      drive(ctx.baselineApi.url, '/baseline', ids),
    ));
    workerMemory = { idle, peak: worker.memory()?.peak ?? NaN };
    ctx.baselineCapacity = baseline.deliveredPerSecond;
    await systems.stop(worker);
  } catch (error) {
    log(`events: baseline failed: ${reason(error)}`);
  }
  await receiver.close();

  const notes: string[] = deliveryNote ? [deliveryNote] : [];
  for (const [system, run, cpu] of [
    ['fincore', fincore, fincoreCpu],
    ['baseline', baseline, baselineCpu],
  ] as const) {
    if (!run) continue;
    if (cpu) notes.push(`${system}: CPU per webhook ${cpuSplit(cpu, run.delivered)}`);
    notes.push(
      `${system}: ${run.ok}/${run.sent} changes answered 200 (${run.apiPerSecond.toFixed(0)}/s while driving), ${run.delivered} webhooks matched` +
        (run.complete ? '' : ` — INCOMPLETE within ${settings.eventTimeoutSeconds} s`) +
        (run.duplicates ? `, ${run.duplicates} duplicate webhooks (same event again)` : ''),
    );
  }
  const row = (name: string, unit: string, higherIsBetter: boolean, f?: number, b?: number): Metric => ({
    scenario,
    name,
    unit,
    higherIsBetter,
    fincore: f ?? null,
    baseline: b ?? null,
    notMeasured: fincoreWhyNot,
    suspect: deliveryNote !== undefined,
  });
  return [
    {
      ...row(
        'events -> webhooks delivered/s',
        '/s',
        true,
        fincore?.deliveredPerSecond,
        baseline?.deliveredPerSecond,
      ),
      notes,
    },
    row('API response -> webhook p50', 'ms', false, fincore?.p50Ms, baseline?.p50Ms),
    row('API response -> webhook p99', 'ms', false, fincore?.p99Ms, baseline?.p99Ms),
    row(
      'CPU per webhook (apps, PostgreSQL, Redis)',
      'ms',
      false,
      fincoreCpu && fincore && fincoreCpu.total / fincore.delivered,
      baselineCpu && baseline && baselineCpu.total / baseline.delivered,
    ),
    row('notifier RSS before the run', 'MiB', false, notifierMemory?.idle, workerMemory?.idle),
    row('notifier peak RSS (VmHWM)', 'MiB', false, notifierMemory?.peak, workerMemory?.peak),
  ];
}

/** The system's processes, its PostgreSQL backends and the Redis server (shared, so measured on a quiet machine). */
async function cpuMeter(ctx: BenchContext, processes: BenchProcess[]): Promise<CpuMeter> {
  const redis = await ctx.world.redisServer();
  return new CpuMeter(ctx.world, redis ? [...processes, redis] : processes);
}

/** `1.23 ms: credentials-api 0.40, notifier 0.50, postgres 0.33` */
function cpuSplit(cpu: CpuSpent, webhooks: number): string {
  const parts = [...Object.entries(cpu.processes), ['postgres', cpu.postgres] as const].map(
    ([name, ms]) => `${name} ${(ms / webhooks).toFixed(2)}`,
  );
  return `${(cpu.total / webhooks).toFixed(2)} ms: ${parts.join(', ')}`;
}
