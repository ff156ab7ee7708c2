/**
 * `npm run bench`: fincore against a bare baseline doing the same work, in one
 * run, on this machine's PostgreSQL and Redis, with a database and queue prefix of its own that
 * are removed afterwards. Prints metric | fincore | baseline | ratio. See docs/performance.md.
 */
import 'reflect-metadata';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { BENCH_ROOT, BenchProcess, DIST_ROOT, sleep } from './support/processes';
import { api, loadNotes, runLoad } from './support/load';
import { TimingReceiver } from './support/receiver';
import { Metric, renderTable } from './support/report';
import { assertLoopback, BenchSettings, loadBenchSettings } from './support/settings';
import { Systems } from './support/systems';
import { BenchTenant, BenchWorld } from './support/world';
import {
  cardIds,
  feeQuotes,
  provisionBaselineCards,
  provisionFincoreCards,
  sameQuotes,
  settingsChanges,
} from './drivers/cards';
import {
  driveEvents,
  driveEventsAtRate,
  EventDrive,
  EventRun,
  FANOUT_ENDPOINTS,
  outboxDrained,
  personIds,
  provisionBaselinePersons,
  provisionFincorePersons,
  RateRun,
  warmIds,
} from './drivers/events';
import { backlogOf, commitBacklog, deliveriesPiledUp } from './drivers/fairness';
import { runCommand } from './support/entry-point';

interface Context {
  settings: BenchSettings;
  world: BenchWorld;
  systems: Systems;
  tenant: BenchTenant;
  baselineApi: BenchProcess;
  /** Persons of the events scenarios, once created in both systems. */
  persons?: string[];
  /** Events per second the baseline delivered in the events scenario (one endpoint). */
  baselineCapacity?: number;
}

const reason = (error: unknown) => ((error as Error).message ?? String(error)).split('\n')[0].slice(0, 160);
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

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

// ------------------------------------------------------------------ events -> webhooks

async function eventsScenario(ctx: Context): Promise<Metric[]> {
  const { settings, systems, world, tenant } = ctx;
  const h = { 'x-auth-token': tenant.token };
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
    await api(
      notifications.url,
      'PUT',
      '/api/v1/notification-config/enable',
      { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' },
      h,
    );
    await api(
      notifications.url,
      'POST',
      '/api/v1/webhook-endpoints',
      { url: `${receiver.url}/fincore`, notificationTypeCodes: ['PERSON_UPDATED'] },
      h,
    );
    if (!(await outboxDrained(world, 30_000)))
      throw new Error('the notifier did not handle the set-up events within 30 s');
    log(`events: fincore warm-up (${warm.length} changes), then ${ids.length} person changes -> webhooks`);
    await drive(credentials.url, '/fincore', warm);
    await world.analyze();
    const idle = notifier.memory()?.rss ?? NaN;
    fincore = await drive(credentials.url, '/fincore', ids);
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
    baseline = await drive(ctx.baselineApi.url, '/baseline', ids);
    workerMemory = { idle, peak: worker.memory()?.peak ?? NaN };
    ctx.baselineCapacity = baseline.deliveredPerSecond;
    await systems.stop(worker);
  } catch (error) {
    log(`events: baseline failed: ${reason(error)}`);
  }
  await receiver.close();

  const notes: string[] = deliveryNote ? [deliveryNote] : [];
  for (const [system, run] of [
    ['fincore', fincore],
    ['baseline', baseline],
  ] as const) {
    if (!run) continue;
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
    row('notifier RSS before the run', 'MiB', false, notifierMemory?.idle, workerMemory?.idle),
    row('notifier peak RSS (VmHWM)', 'MiB', false, notifierMemory?.peak, workerMemory?.peak),
  ];
}

/** Changes that warm fresh processes up before a run measures them. */
const WARM_UP_CHANGES = 100;

// ------------------------------------------------------------------ fairness between tenants

/** The flooding tenant's subscriber answers this slowly, so its backlog lasts while the other sends. */
const FLOODED_RECEIVER_DELAY_MS = 1000;

/**
 * A quiet tenant sends changes one at a time, first alone, then while another tenant has a backlog
 * of thousands of deliveries to a slow subscriber: API response -> webhook of the quiet tenant.
 */
async function fairnessScenario(ctx: Context): Promise<Metric[]> {
  const { settings, systems, world } = ctx;
  const scenario = 'fairness';
  const receiver = await TimingReceiver.start({ '/flooded': FLOODED_RECEIVER_DELAY_MS });
  const timeoutMs = settings.eventTimeoutSeconds * 1000;
  const quietIds = Array.from({ length: 2 * settings.fairnessEvents }, (_, i) => `bench-quiet-${i}`);
  // Fresh processes start cold (JIT, pool connections, prepared statements): warmed up first with
  // changes of persons no run measures, so that "alone" measures the quiet tenant, not a cold start.
  const warmUpIds = Array.from({ length: WARM_UP_CHANGES }, (_, i) => `bench-quiet-warm-${i}`);
  let alone: EventRun | undefined;
  let flooded: EventRun | undefined;
  let whyNot: string | undefined;
  const notes: string[] = [];
  try {
    log('fairness: starting credentials-api, notification-api, notifier');
    const [credentials, notifications, notifier] = await Promise.all([
      systems.startFincore('credentials-api'),
      systems.startFincore('notification-api'),
      systems.startFincore('notifier'),
    ]);
    const [quiet, flooding] = [await world.createTenant(), await world.createTenant()];
    await provisionFincorePersons(credentials.url, quiet, [...warmUpIds, ...quietIds]);
    await world.analyze();
    for (const [tenant, path] of [
      [quiet, '/quiet'],
      [flooding, '/flooded'],
    ] as const) {
      const h = { 'x-auth-token': tenant.token };
      await api(
        notifications.url,
        'PUT',
        '/api/v1/notification-config/enable',
        { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' },
        h,
      );
      await api(notifications.url, 'POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}${path}` }, h);
    }
    if (!(await outboxDrained(world, 30_000)))
      throw new Error('the notifier did not handle the set-up events within 30 s');
    // One request at a time unless told otherwise; a tag keeps the warm-up's names apart.
    const drive = (ids: string[], connections = 1, tag?: string) =>
      driveEvents({
        url: credentials.url,
        token: quiet.token,
        ids,
        connections,
        receiver,
        receiverPaths: ['/quiet'],
        timeoutMs,
        tag,
      });
    log(`fairness: warm-up (${warmUpIds.length} changes of the quiet tenant)`);
    await drive(warmUpIds, settings.eventConnections, 'warm ');
    log(`fairness: ${settings.fairnessEvents} changes of the quiet tenant, one at a time, alone`);
    alone = await drive(quietIds.slice(0, settings.fairnessEvents));
    log(`fairness: the other tenant commits ${settings.fairnessBacklog} events at once`);
    await commitBacklog(world, flooding.code, settings.fairnessBacklog);
    await deliveriesPiledUp(world, flooding, Math.ceil(settings.fairnessBacklog / 10), timeoutMs);
    const before = await backlogOf(world, flooding);
    log(`fairness: ${settings.fairnessEvents} changes of the quiet tenant behind ${JSON.stringify(before)}`);
    flooded = await drive(quietIds.slice(settings.fairnessEvents));
    const after = await backlogOf(world, flooding);
    notes.push(
      `the flooding tenant's backlog when the quiet tenant started: ${before.events} events not fanned out, ` +
        `${before.deliveries} deliveries pending; when it ended: ${after.events} and ${after.deliveries} ` +
        `(its subscriber answers in ${FLOODED_RECEIVER_DELAY_MS} ms; WEBHOOK_CONCURRENCY 20, one notifier)`,
    );
    if (!alone.complete || !flooded.complete)
      notes.push('INCOMPLETE: some webhooks of the quiet tenant did not arrive');
    for (const p of [credentials, notifications, notifier]) await systems.stop(p);
  } catch (error) {
    whyNot = reason(error);
    log(`fairness: not measured: ${whyNot}`);
  }
  await receiver.close();
  const row = (name: string, value?: number): Metric => ({
    scenario,
    name,
    unit: 'ms',
    higherIsBetter: false,
    fincore: value ?? null,
    baseline: null,
    notMeasured: value === undefined ? (whyNot ?? 'incomplete') : undefined,
  });
  return [
    { ...row('quiet tenant, alone: API response -> webhook p50', alone?.p50Ms), notes },
    row('quiet tenant, alone: API response -> webhook p99', alone?.p99Ms),
    row("quiet tenant, behind another's backlog: p50", flooded?.p50Ms),
    row("quiet tenant, behind another's backlog: p99", flooded?.p99Ms),
  ];
}

// ------------------------------------------------------------------ events one at a time, at a fixed rate, and fanned out

/** Changes sent through freshly started processes before each run of eventLoadScenarios. */
/**
 * Three runs over the persons of the events scenario, in both systems: person changes sent one at
 * a time (the next once the previous was answered, one endpoint), changes offered at
 * BENCH_RATE_PERCENT of the baseline's delivery capacity (open loop, one endpoint), and changes
 * delivered to FANOUT_ENDPOINTS endpoints each (closed loop, as the events scenario). Each run is
 * warmed up first with WARM_UP_CHANGES changes on its own endpoints.
 */
async function eventLoadScenarios(ctx: Context, wants: (s: string) => boolean): Promise<Metric[]> {
  const { settings, systems, world, tenant } = ctx;
  const h = { 'x-auth-token': tenant.token };
  const persons = ctx.persons;
  const capacity = ctx.baselineCapacity;
  const rateWhyNot = !persons
    ? 'the events scenario did not run or create its persons'
    : capacity === undefined
      ? "the baseline's delivery capacity was not measured (events scenario)"
      : undefined;
  const fanWhyNot = persons ? undefined : rateWhyNot;
  const perSecond = ((capacity ?? 0) * settings.ratePercent) / 100;
  // The processes of these runs start cold: each run is warmed up first, on its own endpoints, with
  // persons none of the runs measure (their webhooks are told apart by person id).
  const warmUpIds = (persons ?? []).slice(-Math.min(WARM_UP_CHANGES, Math.floor((persons?.length ?? 0) / 2)));
  const measurable = (persons ?? []).slice(0, (persons?.length ?? 0) - warmUpIds.length);
  // As many changes as the offered rate sends in BENCH_SECONDS, within the persons there are.
  const rateIds = measurable.slice(0, Math.max(1, Math.round(perSecond * settings.seconds)));
  const fanIds = measurable.slice(0, settings.fanoutEvents);
  const serialIds = measurable.slice(0, settings.serialEvents);
  const receiver = await TimingReceiver.start();
  const timeoutMs = settings.eventTimeoutSeconds * 1000;
  const fanPaths = (system: string) =>
    Array.from({ length: FANOUT_ENDPOINTS }, (_, i) => `/${system}-fan-${i}`);
  const runs = {
    serial: wants('events-serial') && !fanWhyNot,
    rate: wants('events-rate') && !rateWhyNot,
    fan: wants('events-fanout') && !fanWhyNot,
  };
  const drive = (url: string, receiverPaths: string[], ids: string[], tag: string): EventDrive => ({
    url,
    token: tenant.token,
    ids,
    receiver,
    receiverPaths,
    timeoutMs,
    tag,
  });

  const measure = async (
    system: string,
    url: string,
    useEndpoints: (paths: string[]) => Promise<void>,
  ): Promise<Measured> => {
    const out: Measured = {};
    const warmUp = (paths: string[], run: string) =>
      driveEvents({
        ...drive(url, paths, warmUpIds, `warm ${run} `),
        connections: settings.eventConnections,
      });
    try {
      if (runs.serial) {
        await useEndpoints([`/${system}-serial`]);
        await warmUp([`/${system}-serial`], 'serial');
        log(`events-serial: ${system}, ${serialIds.length} changes one at a time`);
        out.serial = await driveEvents({
          ...drive(url, [`/${system}-serial`], serialIds, 'serial '),
          connections: 1,
        });
      }
      if (runs.rate) {
        await useEndpoints([`/${system}-rate`]);
        await warmUp([`/${system}-rate`], 'rate');
        log(`events-rate: ${system}, ${rateIds.length} changes at ${perSecond.toFixed(0)}/s`);
        out.rate = await driveEventsAtRate({
          ...drive(url, [`/${system}-rate`], rateIds, 'rate '),
          perSecond,
        });
      }
      if (runs.fan) {
        await useEndpoints(fanPaths(system));
        await warmUp(fanPaths(system), 'fan');
        log(`events-fanout: ${system}, ${fanIds.length} changes to ${FANOUT_ENDPOINTS} endpoints each`);
        out.fan = await driveEvents({
          ...drive(url, fanPaths(system), fanIds, 'fan '),
          connections: settings.eventConnections,
        });
      }
    } catch (error) {
      out.whyNot = reason(error);
      log(`events-serial/rate/fanout: ${system} not measured: ${out.whyNot}`);
    }
    return out;
  };

  let fincore: Measured = {};
  let baseline: Measured = {};
  if (runs.serial || runs.rate || runs.fan) {
    try {
      log('events-serial/rate/fanout: starting credentials-api, notification-api, notifier');
      const apps = await Promise.all([
        systems.startFincore('credentials-api'),
        systems.startFincore('notification-api'),
        systems.startFincore('notifier'),
      ]);
      const [credentials, notifications] = apps;
      await api(
        notifications.url,
        'PUT',
        '/api/v1/notification-config/enable',
        { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' },
        h,
      );
      // The tenant's endpoints become exactly these receiver paths.
      fincore = await measure('fincore', credentials.url, async (paths) => {
        const { body } = await api<{ items: Array<{ id: string }> }>(
          notifications.url,
          'GET',
          '/api/v1/webhook-endpoints',
          undefined,
          h,
        );
        for (const e of body.items)
          await api(
            notifications.url,
            'DELETE',
            `/api/v1/webhook-endpoints/${e.id}`,
            undefined,
            h,
            [200, 204],
          );
        for (const path of paths)
          await api(
            notifications.url,
            'POST',
            '/api/v1/webhook-endpoints',
            { url: `${receiver.url}${path}`, notificationTypeCodes: ['PERSON_UPDATED'] },
            h,
          );
        if (!(await outboxDrained(world, 30_000)))
          throw new Error('the notifier did not handle the earlier events within 30 s');
      });
      for (const p of apps) await systems.stop(p);
    } catch (error) {
      fincore.whyNot ??= reason(error);
      log(`events-serial/rate/fanout: fincore not measured: ${fincore.whyNot}`);
    }
    let worker: BenchProcess | undefined;
    baseline = await measure('baseline', ctx.baselineApi.url, async (paths) => {
      if (worker) await systems.stop(worker);
      worker = await systems.startBaselineWorker(paths.map((path) => `${receiver.url}${path}`));
    });
    if (worker) await systems.stop(worker);
  }
  await receiver.close();

  const metrics: Metric[] = [];
  const runNote = (system: string, run: EventRun | undefined) =>
    run
      ? [
          `${system}: ${run.ok}/${run.sent} changes answered 200` +
            (run.ok < run.sent ? ` (answers: ${JSON.stringify(run.statusCodes)})` : '') +
            `, ${run.delivered} webhooks matched` +
            (run.complete ? '' : ` — INCOMPLETE within ${settings.eventTimeoutSeconds} s`) +
            (run.duplicates ? `, ${run.duplicates} duplicate webhooks` : ''),
        ]
      : [];
  if (wants('events-serial')) {
    const scenario = 'events-serial';
    const whyNot = fanWhyNot ?? fincore.whyNot;
    const row = latencyRow(scenario, whyNot);
    metrics.push(
      row('one at a time: API response -> webhook p50', fincore.serial?.p50Ms, baseline.serial?.p50Ms, [
        ...runNote('fincore', fincore.serial),
        ...runNote('baseline', baseline.serial),
      ]),
      row('one at a time: API response -> webhook p99', fincore.serial?.p99Ms, baseline.serial?.p99Ms),
    );
  }
  if (wants('events-rate')) {
    const scenario = 'events-rate';
    const whyNot = rateWhyNot ?? fincore.whyNot;
    const keptUp = (run: RateRun) =>
      `${run.deliveredPerSecond.toFixed(0)}/s delivered of ${run.offeredPerSecond.toFixed(0)}/s offered, ` +
      `backlog drained ${run.drainMs.toFixed(0)} ms after the last answer` +
      (run.complete && run.deliveredPerSecond >= 0.95 * run.offeredPerSecond
        ? ' (kept up)'
        : ' (FELL BEHIND)');
    const notes = [
      ...runNote('fincore', fincore.rate),
      ...(fincore.rate ? [`fincore: ${keptUp(fincore.rate)}`] : []),
      ...runNote('baseline', baseline.rate),
      ...(baseline.rate ? [`baseline: ${keptUp(baseline.rate)}`] : []),
    ];
    const row = latencyRow(scenario, whyNot);
    metrics.push(
      {
        scenario,
        name: `events at ${settings.ratePercent}% of baseline capacity: delivered/s`,
        unit: '/s',
        higherIsBetter: true,
        fincore: fincore.rate?.deliveredPerSecond ?? null,
        baseline: baseline.rate?.deliveredPerSecond ?? null,
        notMeasured: whyNot,
        notes,
      },
      row('  API response -> webhook p50', fincore.rate?.p50Ms, baseline.rate?.p50Ms),
      row('  API response -> webhook p99', fincore.rate?.p99Ms, baseline.rate?.p99Ms),
    );
  }
  if (wants('events-fanout')) {
    metrics.push({
      scenario: 'events-fanout',
      name: `events x ${FANOUT_ENDPOINTS} endpoints -> webhooks delivered/s`,
      unit: '/s',
      higherIsBetter: true,
      fincore: fincore.fan?.deliveredPerSecond ?? null,
      baseline: baseline.fan?.deliveredPerSecond ?? null,
      notMeasured: fanWhyNot ?? fincore.whyNot,
      notes: [...runNote('fincore', fincore.fan), ...runNote('baseline', baseline.fan)],
    });
  }
  return metrics;
}

/** A latency row of one scenario (lower is better), both systems' figure in milliseconds. */
const latencyRow =
  (scenario: string, notMeasured: string | undefined) =>
  (name: string, fincore?: number, baseline?: number, notes?: string[]): Metric => ({
    scenario,
    name,
    unit: 'ms',
    higherIsBetter: false,
    fincore: fincore ?? null,
    baseline: baseline ?? null,
    notMeasured,
    notes,
  });

interface Measured {
  serial?: EventRun;
  rate?: RateRun;
  fan?: EventRun;
  whyNot?: string;
}

// ------------------------------------------------------------------ card settings and fee quotes

async function cardScenarios(ctx: Context, wants: (s: string) => boolean): Promise<Metric[]> {
  const { settings, systems, world, tenant } = ctx;
  const cards = cardIds(settings.cards);
  let cardApi: BenchProcess | undefined;
  let setupWhyNot: string | undefined;
  try {
    log('cards: starting card-api');
    cardApi = await systems.startFincore('card-api');
    log(`cards: provisioning catalogs, the standard tariff and ${cards.length} cards through the card API`);
    await provisionFincoreCards(cardApi.url, tenant, cards.length);
  } catch (error) {
    setupWhyNot = reason(error);
    log(`cards: fincore set-up failed: ${setupWhyNot}`);
  }
  await provisionBaselineCards(world, tenant, cards.length);
  await world.analyze();

  const load = (url: string, next: () => { path: string; body?: string }, headers: Record<string, string>) =>
    runLoad({
      url,
      connections: settings.connections,
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      method: 'POST',
      headers,
      next,
    });

  const metrics: Metric[] = [];
  const scenario = async (
    name: string,
    label: string,
    headers: Record<string, string>,
    next: () => () => { path: string; body?: string },
    precheck?: () => Promise<string | null>,
  ) => {
    let whyNot = setupWhyNot;
    const notes: string[] = [];
    let f;
    if (!whyNot && cardApi) {
      try {
        const disagreement = precheck ? await precheck() : null;
        if (disagreement) notes.push(`WARNING: ${disagreement}`);
        log(`${name}: fincore, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s`);
        f = await load(cardApi.url, next(), headers);
        notes.push(...loadNotes('fincore', f));
      } catch (error) {
        whyNot = reason(error);
        log(`${name}: fincore not measured: ${whyNot}`);
      }
    }
    log(`${name}: baseline, ${settings.warmupSeconds} s warm-up + ${settings.seconds} s`);
    const b = await load(ctx.baselineApi.url, next(), headers);
    notes.push(...loadNotes('baseline', b));
    metrics.push(
      {
        scenario: name,
        name: `${label}/s`,
        unit: '/s',
        higherIsBetter: true,
        fincore: f?.okPerSecond ?? null,
        baseline: b.okPerSecond,
        notMeasured: whyNot,
        notes,
      },
      {
        scenario: name,
        name: `${label} latency p50`,
        unit: 'ms',
        higherIsBetter: false,
        fincore: f?.p50Ms ?? null,
        baseline: b.p50Ms,
        notMeasured: whyNot,
      },
      {
        scenario: name,
        name: `${label} latency p99`,
        unit: 'ms',
        higherIsBetter: false,
        fincore: f?.p99Ms ?? null,
        baseline: b.p99Ms,
        notMeasured: whyNot,
      },
    );
  };

  const auth = { 'x-auth-token': tenant.token };
  if (wants('fees')) {
    await scenario(
      'fees',
      'fee quotes',
      auth,
      () => feeQuotes(cards),
      () => sameQuotes(cardApi!.url, ctx.baselineApi.url, tenant.token, cards[0]),
    );
  }
  if (wants('settings')) {
    await scenario('settings', 'settings changes', { ...auth, 'x-tenant-code': tenant.code }, () =>
      settingsChanges(cards),
    );
  }
  if (cardApi) await systems.stop(cardApi);
  return metrics;
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const settings = loadBenchSettings();
  assertLoopback(settings.adminDatabaseUrl, 'BENCH_ADMIN_DATABASE_URL');
  assertLoopback(settings.redisUrl, 'BENCH_REDIS_URL');
  const wants = (s: string) => settings.only === null || settings.only.has(s);
  const started = Date.now();

  // The run bounds itself: every wait has a limit, and this watchdog ends it whatever happens.
  const budgetSeconds =
    6 * (settings.seconds + settings.warmupSeconds) + 6 * settings.eventTimeoutSeconds + 360;
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
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

  const metrics: Metric[] = [];
  try {
    log(`database ${world.databaseName}, queue prefix ${world.queuePrefix}; build in ${DIST_ROOT}`);
    const tenant = await world.createTenant();
    await systems.prepareBaselineSchema();
    const baselineApi = await systems.startBaselineApi();
    const ctx: Context = { settings, world, systems, tenant, baselineApi };
    if (wants('events')) metrics.push(...(await eventsScenario(ctx)));
    if (wants('events-serial') || wants('events-rate') || wants('events-fanout'))
      metrics.push(...(await eventLoadScenarios(ctx, wants)));
    if (wants('fairness')) metrics.push(...(await fairnessScenario(ctx)));
    if (wants('settings') || wants('fees')) metrics.push(...(await cardScenarios(ctx, wants)));
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

runCommand('bench', main);
