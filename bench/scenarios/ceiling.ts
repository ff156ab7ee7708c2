import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { provisionFincorePersons, subscribeWebhooks } from '../drivers/events';
import { ceilingScript } from '../support/ceiling-script';
import { Metric } from '../support/report';
import { BenchContext, log, reason, Scenario } from './scenario';

/** Events per pgbench transaction: the notifier records about this many successes per statement under load. */
export const CEILING_BATCH = 5;
/** Persons per pgbench client: each client changes only its own, as fincore's subjects are ordered. */
const PERSONS_PER_CLIENT = 50;
const NOT_MEASURED = 'PostgreSQL alone, no baseline';

/**
 * The durable-delivery ceiling: pgbench issues, on the run's own database, exactly the statements
 * fincore's processes issue per webhook (the person's read and change with its outbox row, the
 * fan-out, the success record, batched as the notifier batches them; read from the repositories'
 * query snapshots), with nothing else on the machine. Its rate is what PostgreSQL allows here; fincore's delivered/s is given as a share of it.
 */
export const ceiling: Scenario = { name: 'ceiling', run };

async function run(ctx: BenchContext): Promise<Metric[]> {
  const { settings } = ctx;
  const clients = settings.eventConnections;
  let measured: { eventsPerSecond: number; events: number; recorded: number } | undefined;
  let whyNot: string | undefined;
  try {
    const tenant = await prepare(ctx, clients);
    log(
      `ceiling: pgbench, ${clients} clients, ${settings.seconds} s, ${CEILING_BATCH} events per transaction`,
    );
    const transactions = await pgbench(ctx, clients, {
      tenant_id: tenant.tenantId,
      tenant_code: tenant.code,
      persons_per_client: String(PERSONS_PER_CLIENT),
    });
    const [{ n }] = await ctx.world.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications.webhook_deliveries WHERE tenant_id = $1 AND status = 'SUCCEEDED'`,
      [tenant.tenantId],
    );
    measured = {
      eventsPerSecond: transactions.perSecond * CEILING_BATCH,
      events: transactions.count * CEILING_BATCH,
      recorded: n,
    };
    // Every event must have been written, fanned out and recorded, or the rate means nothing.
    if (n < measured.events) whyNot = `only ${n} of ${measured.events} deliveries recorded`;
  } catch (error) {
    whyNot = reason(error);
    log(`ceiling: not measured: ${whyNot}`);
  }
  const ceilingRate = whyNot ? null : (measured?.eventsPerSecond ?? null);
  return [
    {
      scenario: 'ceiling',
      name: "PostgreSQL's ceiling: events written as fincore writes them/s (pgbench)",
      unit: '/s',
      higherIsBetter: true,
      fincore: ceilingRate,
      baseline: null,
      notMeasured: whyNot ?? NOT_MEASURED,
      notes: measured
        ? [
            `ceiling: ${measured.events} events in pgbench transactions, ${measured.recorded} deliveries recorded`,
          ]
        : [],
    },
    {
      scenario: 'ceiling',
      name: 'events -> webhooks delivered/s against that ceiling',
      unit: '/s',
      higherIsBetter: true,
      fincore: ctx.fincoreDelivered ?? null,
      baseline: ceilingRate,
      notMeasured: ctx.fincoreDelivered === undefined ? 'the events scenario did not run' : whyNot,
      notes: ["ceiling: the second row's ratio is fincore's delivered/s as a share of PostgreSQL's ceiling"],
    },
  ];
}

/** A tenant of its own with one endpoint and the persons, made through the APIs; no notifier runs. */
async function prepare(ctx: BenchContext, clients: number) {
  const { systems, world } = ctx;
  const tenant = await world.createTenant();
  log('ceiling: starting credentials-api and notification-api for the set-up');
  const apps = [
    await systems.startFincore('credentials-api'),
    await systems.startFincore('notification-api'),
  ];
  try {
    const ids = Array.from({ length: clients * PERSONS_PER_CLIENT }, (_, i) => `bench-ceiling-${i}`);
    await provisionFincorePersons(apps[0].url, tenant, ids);
    // Nothing is sent: the endpoint only has to exist for the fan-out to find it.
    await subscribeWebhooks(apps[1].url, tenant, 'http://127.0.0.1:9/ceiling');
  } finally {
    for (const app of apps) await systems.stop(app);
  }
  // The set-up's own events are not part of what is measured.
  await world.query(
    `UPDATE events.outbox SET processed_at = now() WHERE tenant_code = $1 AND processed_at IS NULL`,
    [tenant.code],
  );
  await world.analyze();
  return tenant;
}

/** Runs the script for BENCH_SECONDS: transactions per second and how many there were. */
async function pgbench(ctx: BenchContext, clients: number, variables: Record<string, string>) {
  const url = new URL(ctx.world.databaseUrl);
  const dir = mkdtempSync(join(tmpdir(), 'fincore-ceiling-'));
  try {
    const script = join(dir, 'ceiling.sql');
    writeFileSync(script, ceilingScript(CEILING_BATCH));
    const args = [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(clients),
      '-j',
      '2',
      '-T',
      String(ctx.settings.seconds),
      '-f',
      script,
      ...Object.entries(variables).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
      '-h',
      url.hostname,
      '-p',
      url.port || '5432',
      '-U',
      decodeURIComponent(url.username || 'postgres'),
      url.pathname.slice(1),
    ];
    const output = await runPgbench(args, url.password);
    const perSecond = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1]);
    const count = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1]);
    const failed = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
    if (!Number.isFinite(perSecond) || !Number.isFinite(count) || failed > 0)
      throw new Error(`pgbench: ${output.split('\n').slice(-6).join(' | ')}`);
    return { perSecond, count };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runPgbench(args: string[], password: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('pgbench', args, {
      env: { PATH: process.env.PATH, ...(password ? { PGPASSWORD: decodeURIComponent(password) } : {}) },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`pgbench exited ${code}: ${output.slice(-600)}`)),
    );
  });
}
