/**
 * `npm run bench`: fincore against a bare baseline doing the same work, in one
 * run, on this machine's PostgreSQL and Redis, with a database and queue prefix of its own that
 * are removed afterwards. Prints metric | fincore | baseline | ratio. See docs/performance.md.
 */
import 'reflect-metadata';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { BENCH_ROOT, DIST_ROOT } from './support/processes';
import { Metric, renderTable } from './support/report';
import { assertLoopback, loadBenchSettings } from './support/settings';
import { Systems } from './support/systems';
import { BenchWorld } from './support/world';
import { runCommand } from './support/entry-point';
import { cardLoad } from './scenarios/card-load';
import { ceiling } from './scenarios/ceiling';
import { costBacklog } from './scenarios/cost-backlog';
import { costCurves } from './scenarios/cost-curves';
import { eventLoad } from './scenarios/event-load';
import { events } from './scenarios/events';
import { eventsFanout } from './scenarios/events-fanout';
import { eventsRate } from './scenarios/events-rate';
import { eventsSerial } from './scenarios/events-serial';
import { eventsStream } from './scenarios/events-stream';
import { fairness } from './scenarios/fairness';
import { fees } from './scenarios/fees';
import { portalReads } from './scenarios/portal-reads';
import { alone, BenchContext, log, Stage } from './scenarios/scenario';
import { cardSettings } from './scenarios/settings';

/**
 * Every scenario, in the order a run takes them (BENCH_ONLY picks by name). Scenarios that share
 * processes and set-up run as one stage: the event loads reuse the events scenario's persons.
 */
const STAGES: Stage[] = [
  alone(events),
  eventLoad([eventsSerial, eventsRate, eventsFanout]),
  alone(fairness),
  alone(eventsStream),
  alone(portalReads),
  cardLoad([fees, cardSettings]),
  alone(ceiling),
  alone(costCurves),
  alone(costBacklog),
];

async function main(): Promise<void> {
  const settings = loadBenchSettings();
  assertLoopback(settings.adminDatabaseUrl, 'BENCH_ADMIN_DATABASE_URL');
  assertLoopback(settings.redisUrl, 'BENCH_REDIS_URL');
  const wants = (s: string) => settings.only === null || settings.only.has(s);
  const started = Date.now();

  // The run bounds itself: every wait has a limit, and this watchdog ends it whatever happens.
  // The cost curves wait at most the event timeout at each of their ten points, after their set-up;
  // the backlog's set-up writes some 2,000 deliveries a second at least, then its drain has its own limit.
  const budgetSeconds =
    6 * (settings.seconds + settings.warmupSeconds) +
    6 * settings.eventTimeoutSeconds +
    360 +
    (wants('cost-curves') ? 10 * settings.eventTimeoutSeconds + 300 : 0) +
    (wants('cost-backlog') ? settings.backlogTimeoutSeconds + Math.ceil(settings.backlog / 2000) + 120 : 0);
  let cleanup: () => Promise<void> = async () => undefined;
  const watchdog = setTimeout(() => {
    log(`aborted: the run took longer than ${budgetSeconds} s`);
    void cleanup().finally(() => process.exit(2));
  }, budgetSeconds * 1000);
  watchdog.unref();

  const world = await BenchWorld.create(settings);
  const systems = new Systems(world, settings);
  let cleaned = false;
  cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await systems.stopAll();
    await world.destroy();
  };
  // Stopped by Ctrl-C or by kill: its processes, database and Redis keys go with it either way.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    process.once(signal, () => void cleanup().finally(() => process.exit(code)));

  const metrics: Metric[] = [];
  try {
    log(`database ${world.databaseName}, queue prefix ${world.queuePrefix}; build in ${DIST_ROOT}`);
    const tenant = await world.createTenant();
    await systems.prepareBaselineSchema();
    const baselineApi = await systems.startBaselineApi();
    const ctx: BenchContext = { settings, world, systems, tenant, baselineApi };
    for (const stage of STAGES) if (stage.names.some(wants)) metrics.push(...(await stage.run(ctx, wants)));
  } finally {
    await cleanup();
    clearTimeout(watchdog);
  }

  const info = machine();
  const out: string[] = [];
  out.push(`fincore benchmark — ${new Date().toISOString()}`);
  out.push(
    `machine: ${info.cpu}, ${info.cpus} CPUs, ${info.memory} RAM, ${info.platform}, Node ${info.node}`,
  );
  out.push(
    `load: ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s per HTTP scenario; ` +
      `${settings.events} person changes at ${settings.eventConnections} concurrent; ${settings.cards} cards; fincore LOG_LEVEL=${settings.logLevel}`,
  );
  if (wants('cost-curves'))
    out.push(
      `cost curves: ${settings.costCurves.join(', ')}; ${settings.costEvents} events per point, tenants ${settings.costTenants.join(', ')}`,
    );
  out.push(
    'ratio: fincore/baseline for rates, baseline/fincore for latency and memory (below 1 = fincore slower or heavier)',
  );
  out.push('');
  out.push(renderTable(metrics));
  const notes = metrics.flatMap((m) => (m.notes ?? []).map((n) => `[${m.scenario}] ${n}`));
  if (notes.length) out.push('', ...notes.map((n) => `- ${n}`));
  out.push('', `total ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.stdout.write(`${out.join('\n')}\n`);

  try {
    const dir = join(BENCH_ROOT, '..', 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
      JSON.stringify(
        { machine: info, settings: { ...settings, only: settings.only && [...settings.only] }, metrics },
        null,
        2,
      ),
    );
  } catch {}
}

function machine(): Record<string, string> {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    model = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? model;
  } catch {}
  return {
    cpu: model,
    cpus: String(cpus().length),
    memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

runCommand('bench', main);
