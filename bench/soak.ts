/**
 * `npm run soak`: steady event traffic through credentials-api -> notification-api relay ->
 * notifier -> a local receiver, with retention short enough to apply during the run. Samples the
 * rows and sizes of the outbox and the delivery history and says whether they stay flat once the
 * first retention window has passed. Before that, counts the database rows written per event.
 * Same isolation as `npm run bench`: a database and queue prefix of its own, removed afterwards.
 * See docs/scaling.md.
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_ROOT, sleep, waitFor } from './support/processes';
import { TimingReceiver } from './support/receiver';
import { assertLoopback, loadSoakSettings } from './support/settings';
import { Systems } from './support/systems';
import { BenchWorld } from './support/world';
import { driveEvents, outboxDrained, provisionFincorePersons, subscribeWebhooks } from './drivers/events';
import {
  autovacuumRuns,
  judgeFlatness,
  RETAINED_TABLES,
  sampleTables,
  settledWriteCounters,
  steadyTraffic,
  TableSample,
  vacuumRetainedTables,
  writesPer,
} from './drivers/soak';
import { runCommand } from './support/entry-point';

const log = (line: string) => process.stderr.write(`[soak] ${line}\n`);
const DAY_SECONDS = 24 * 3600;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

async function main(): Promise<void> {
  const settings = loadSoakSettings();
  assertLoopback(settings.adminDatabaseUrl, 'BENCH_ADMIN_DATABASE_URL');
  assertLoopback(settings.redisUrl, 'BENCH_REDIS_URL');
  const soakSeconds = settings.minutes * 60;
  const watchdog = setTimeout(
    () => {
      log('aborted: the run took far longer than planned');
      process.exit(2);
    },
    (soakSeconds + 300) * 1000,
  );
  watchdog.unref();

  const world = await BenchWorld.create(settings);
  const systems = new Systems(world, settings);
  const receiver = await TimingReceiver.start();
  const out: string[] = [];
  const retention = {
    OUTBOX_RETENTION_DAYS: String(settings.retentionSeconds / DAY_SECONDS),
    DELIVERY_RETENTION_DAYS: String(settings.retentionSeconds / DAY_SECONDS),
    RETENTION_INTERVAL_MS: String(Math.round(settings.retentionIntervalSeconds * 1000)),
  };
  try {
    log(
      `database ${world.databaseName}; retention ${settings.retentionSeconds} s, swept every ${settings.retentionIntervalSeconds} s`,
    );
    const tenant = await world.createTenant();
    const [credentials, notifications] = await Promise.all([
      systems.startFincore('credentials-api', retention),
      systems.startFincore('notification-api', retention),
      systems.startFincore('notifier', retention),
    ]);
    const ids = Array.from({ length: settings.persons }, (_, i) => `soak-person-${i}`);
    const writeIds = Array.from({ length: settings.writeSampleEvents }, (_, i) => `soak-writes-${i}`);
    log(`creating ${ids.length + writeIds.length} persons, one webhook endpoint`);
    await provisionFincorePersons(credentials.url, tenant, [...ids, ...writeIds]);
    await world.analyze();
    await subscribeWebhooks(notifications.url, tenant, `${receiver.url}/soak`);
    if (!(await outboxDrained(world, 30_000)))
      throw new Error('the set-up events were not handled within 30 s');

    // ---- database rows written per event: one endpoint, every first attempt succeeds
    log(`writes: ${writeIds.length} events, one each, then waiting for the statistics to settle`);
    const before = await settledWriteCounters(world);
    const run = await driveEvents({
      url: credentials.url,
      token: tenant.token,
      ids: writeIds,
      connections: 10,
      receiver,
      receiverPaths: ['/soak'],
      timeoutMs: 60_000,
    });
    await waitFor(
      async () => {
        const [{ n }] = await world.query<{ n: string }>(
          `SELECT count(*) AS n FROM notifications.webhook_deliveries WHERE status = 'SUCCEEDED'`,
        );
        return Number(n) >= run.ok || undefined;
      },
      30_000,
      'the deliveries of the write sample to be recorded',
    );
    const after = await settledWriteCounters(world);
    const perEvent = writesPer(before, after, run.ok);

    // ---- the soak
    log(
      `soak: ${settings.eventsPerSecond} events/s for ${settings.minutes} min, sampling every ${settings.sampleSeconds} s`,
    );
    const samples: TableSample[] = [];
    let sampling = true;
    const started = Date.now();
    const sampler = (async () => {
      while (sampling) {
        const sample = await sampleTables(world, (Date.now() - started) / 1000);
        samples.push(sample);
        log(
          `t=${sample.at.toFixed(0)}s ` +
            RETAINED_TABLES.map(
              (t) =>
                `${t.split('.')[1]} ${sample.rows[t]} rows ${kib(sample.bytes[t])} ` +
                `(${sample.dead[t]} dead, ${sample.vacuums[t]} vacuums)`,
            ).join(' | '),
        );
        await sleep(settings.sampleSeconds * 1000);
      }
    })();
    // Without autovacuum deleted rows never free their space: stand in for it, and say so.
    const selfVacuum = settings.vacuumSeconds > 0 && !(await autovacuumRuns(world));
    const vacuumer = (async () => {
      let next = Date.now() + settings.vacuumSeconds * 1000;
      while (selfVacuum && sampling) {
        await sleep(500);
        if (!sampling || Date.now() < next) continue;
        await vacuumRetainedTables(world);
        next = Date.now() + settings.vacuumSeconds * 1000;
      }
    })();
    const traffic = await steadyTraffic({
      url: credentials.url,
      token: tenant.token,
      ids,
      perSecond: settings.eventsPerSecond,
      seconds: soakSeconds,
    });
    sampling = false;
    await Promise.all([sampler, vacuumer]);
    // Every acknowledged change should have its webhook: wait for the backlog, then count.
    const acknowledged = run.ok + traffic.ok;
    const drained = await waitFor(
      () => receiver.received >= acknowledged || undefined,
      60_000,
      'the last webhooks',
    ).catch(() => false);

    // The first sweep that can delete the first events of the soak comes one window plus one interval
    // in; the space it frees is reused only after the next vacuum, so the size is judged from then.
    const window = settings.retentionSeconds + settings.retentionIntervalSeconds;
    const settledAfter = window + (selfVacuum ? settings.vacuumSeconds : 0);
    const verdict = judgeFlatness(samples, settledAfter);
    const eventsPerSecond = traffic.ok / traffic.seconds;

    out.push(`fincore soak — ${new Date().toISOString()}`);
    out.push(
      `traffic: ${traffic.ok}/${traffic.sent} person changes answered 200 in ${traffic.seconds.toFixed(0)} s ` +
        `(${eventsPerSecond.toFixed(1)} events/s; ${JSON.stringify(traffic.statusCodes)}), ${receiver.received} webhooks received for ${acknowledged} acknowledged changes` +
        `${drained ? '' : ' (still missing after 60 s)'}, one endpoint`,
    );
    out.push(
      `retention: OUTBOX_RETENTION_DAYS = DELIVERY_RETENTION_DAYS = ${retention.OUTBOX_RETENTION_DAYS} (${settings.retentionSeconds} s), ` +
        `RETENTION_INTERVAL_MS=${retention.RETENTION_INTERVAL_MS}; judged on the samples after ${settledAfter} s`,
    );
    out.push(
      selfVacuum
        ? `vacuum: the server's autovacuum is off, so the soak ran VACUUM (ANALYZE) on the three tables every ${settings.vacuumSeconds} s, as autovacuum would`
        : `vacuum: ${settings.vacuumSeconds > 0 ? "the server's autovacuum" : 'none (SOAK_VACUUM_SECONDS=0)'}`,
    );
    out.push(
      '',
      `database rows written per event (${run.ok} events, one endpoint, one successful attempt each):`,
    );
    out.push('| table | inserted | updated | deleted |', '|---|---|---|---|');
    for (const r of perEvent)
      out.push(
        `| ${r.table} | ${r.inserted.toFixed(2)} | ${r.updated.toFixed(2)} | ${r.deleted.toFixed(2)} |`,
      );
    const sum = (pick: (r: (typeof perEvent)[number]) => number) => perEvent.reduce((s, r) => s + pick(r), 0);
    out.push(
      `| all | ${sum((r) => r.inserted).toFixed(2)} | ${sum((r) => r.updated).toFixed(2)} | ${sum((r) => r.deleted).toFixed(2)} |`,
    );
    out.push('');
    if (!verdict) {
      out.push(`not judged: fewer than 4 samples after ${settledAfter} s; run longer (SOAK_MINUTES)`);
    } else {
      out.push(
        '| table | rows, early max | rows, late max | size, early max | size, late max | bytes/row | size growth after the window | vacuums, most dead rows | verdict |',
      );
      out.push('|---|---|---|---|---|---|---|---|---|');
      for (const f of verdict)
        out.push(
          `| ${f.table} | ${f.rowsEarlyMax} | ${f.rowsLateMax} | ${kib(f.bytesEarlyMax)} | ${kib(f.bytesLateMax)} | ${f.bytesPerRow.toFixed(0)} | ` +
            `${(f.bytesPerSecond / 1024).toFixed(1)} KiB/s = ${(f.bytesPerSecond / eventsPerSecond).toFixed(0)} B/event | ` +
            `${f.vacuums}, ${f.deadMax} | ` +
            `${f.flatRows && f.flatBytes ? 'flat' : f.flatRows ? 'rows flat, size still growing' : 'GROWING'} |`,
        );
      out.push(
        '',
        `expected steady rows per table ≈ events/s × (retention + interval) = ${(eventsPerSecond * window).toFixed(0)}`,
        `${verdict.every((f) => f.flatRows && f.flatBytes) ? 'FLAT' : 'NOT FLAT'}: ${verdict.length} tables, ${verdict[0].samples} samples after the first retention window`,
      );
      if (verdict.some((f) => f.flatRows && !f.flatBytes && f.vacuums === 0))
        out.push(
          'rows stay bounded but no vacuum ran on a growing table: deleted rows free their space for reuse only once ' +
            '(auto)vacuum has visited the table; run longer (SOAK_MINUTES) to see the size level off',
        );
    }
    process.stdout.write(`${out.join('\n')}\n`);
    try {
      const dir = join(BENCH_ROOT, '..', 'bench', 'results');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
        JSON.stringify(
          { settings: { ...settings, only: null }, traffic, perEvent, samples, verdict },
          null,
          2,
        ),
      );
    } catch {}
  } finally {
    await receiver.close();
    await systems.stopAll();
    await world.destroy();
    clearTimeout(watchdog);
  }
}

runCommand('soak', main);
