/**
 * `npm run build && npm run build:bench && node dist-bench/bench/profile-notifier.js [events]
 * [endpoints] [dir]`: the notifier alone under a backlog, started with `node --cpu-prof`, on a
 * database of its own. The person changes are committed through the credentials API while the
 * notifier's `domain-events` queue is paused, then the queue is resumed and the notifier drains
 * them: every figure below is the notifier's own. Prints webhooks delivered/s while draining, CPU
 * milliseconds per webhook (from /proc, stable under machine load where rates are not), PostgreSQL
 * transactions per webhook (the database's xact_commit: one per statement outside a transaction),
 * then the profile's top frames by self time. See docs/performance.md.
 */
import 'reflect-metadata';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Queue } from 'bullmq';
import {
  driveEvents,
  personIds,
  provisionFincorePersons,
  subscribeWebhooks,
  warmIds,
} from './drivers/events';
import { cpuMs, CpuProfile, topFrames } from './support/cpu-profile';
import { sleep } from './support/processes';
import { TimingReceiver } from './support/receiver';
import { loadBenchSettings } from './support/settings';
import { Systems } from './support/systems';
import { BenchWorld } from './support/world';
import { runCommand } from './support/entry-point';

const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
const mib = (bytes?: number) => ((bytes ?? NaN) / 2 ** 20).toFixed(0);

async function main(): Promise<void> {
  const [eventsText = '2000', endpointsText = '1', dir = '/tmp/fincore-profile'] = process.argv.slice(2);
  const endpoints = Number(endpointsText);
  const settings = loadBenchSettings();
  const world = await BenchWorld.create(settings);
  const systems = new Systems(world, settings);
  const receiver = await TimingReceiver.start();
  const redisUrl = new URL(settings.redisUrl);
  const queue = new Queue('domain-events', {
    connection: { host: redisUrl.hostname, port: Number(redisUrl.port || 6379) },
    prefix: `{${world.queuePrefix}}`,
  });
  try {
    const tenant = await world.createTenant();
    const ids = personIds(Number(eventsText));
    const warm = warmIds({ events: Number(eventsText) });
    const [credentials, notifications] = await Promise.all([
      systems.startFincore('credentials-api'),
      systems.startFincore('notification-api'),
    ]);
    log(`creating ${ids.length + warm.length} persons`);
    await provisionFincorePersons(credentials.url, tenant, [...warm, ...ids]);
    await world.analyze();
    const paths = Array.from({ length: endpoints }, (_, i) => `/fincore-${i}`);
    for (const path of paths) await subscribeWebhooks(notifications.url, tenant, `${receiver.url}${path}`);
    mkdirSync(dir, { recursive: true });
    const before = new Set(readdirSync(dir));
    const notifier = await systems.startFincore('notifier', {
      NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}`,
    });
    const drive = (list: string[], tag: string) =>
      driveEvents({
        url: credentials.url,
        token: tenant.token,
        ids: list,
        connections: settings.eventConnections,
        receiver,
        receiverPaths: paths,
        timeoutMs: settings.eventTimeoutSeconds * 1000,
        tag,
      });
    log('warm-up');
    await drive(warm, 'warm');
    await queue.pause();
    const backlog = drive(ids, 'measured');
    // Every change committed (and queued) before the notifier may take any.
    log('committing the backlog with the queue paused');
    while (
      Object.values(await queue.getJobCounts('wait', 'prioritized')).reduce((a, b) => a + b, 0) < ids.length
    )
      await sleep(100);
    log('draining');
    const xact = async () =>
      Number(
        (
          await world.query<{ n: string }>(
            `SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()`,
          )
        )[0].n,
      );
    await sleep(1000);
    const cpuBefore = cpuMs(notifier.pid);
    const xactBefore = await xact();
    const started = performance.now();
    await queue.resume();
    log('resumed');
    const run = await backlog;
    const drainSeconds = (performance.now() - started) / 1000;
    // The last records land just after the last webhook.
    await sleep(1000);
    const cpu = cpuMs(notifier.pid) - cpuBefore;
    // Less the four reads of this measurement's own connection.
    const statements = (await xact()) - xactBefore - 4;
    process.stdout.write(
      `notifier: ${run.delivered} webhooks (${endpoints} endpoint(s)) in ${drainSeconds.toFixed(1)} s = ` +
        `${(run.delivered / drainSeconds).toFixed(0)}/s while draining; CPU ${(cpu / run.delivered).toFixed(2)} ms ` +
        `and ${(statements / run.delivered).toFixed(2)} PostgreSQL transactions per webhook; ` +
        `RSS ${mib(notifier.memory()?.rss)} MiB, peak ${mib(notifier.memory()?.peak)} MiB, complete ${run.complete}\n`,
    );
    await systems.stop(notifier);
    const written = readdirSync(dir).filter((f) => !before.has(f) && f.endsWith('.cpuprofile'));
    for (const file of written) {
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
      process.stdout.write(`profile ${join(dir, file)}, top frames (self) of the drain:\n`);
      process.stdout.write(`${topFrames(profile, Math.ceil(drainSeconds) + 1, 25).join('\n')}\n`);
    }
  } finally {
    await queue.close();
    await receiver.close();
    await systems.stopAll();
    await world.destroy();
  }
}

runCommand('profile', main);
