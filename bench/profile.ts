/**
 * `npm run build && node dist/bench/profile.js <fees|settings> [seconds] [dir]`: the card API under
 * the benchmark's load (20 connections), on a database of its own, started with `node --cpu-prof`.
 * Prints rate, latency and CPU milliseconds per request (from /proc, stable under machine load
 * where rates are not), then the profile's top frames by self time over the measured seconds.
 * BENCH_PROFILE_BASELINE=1 measures the baseline API too (not profiled). See docs/performance.md.
 */
import 'reflect-metadata';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cardIds,
  feeQuotes,
  provisionBaselineCards,
  provisionFincoreCards,
  settingsChanges,
} from './scenarios/cards';
import { cpuMs, CpuProfile, topFrames } from './support/cpu-profile';
import { runLoad } from './support/load';
import { BenchProcess } from './support/processes';
import { loadBenchSettings } from './support/settings';
import { Systems } from './support/systems';
import { BenchWorld } from './support/world';
import { runCommand } from './support/entry-point';

async function main(): Promise<void> {
  const [what = 'fees', secondsText = '10', dir = '/tmp/fincore-profile'] = process.argv.slice(2);
  if (what !== 'fees' && what !== 'settings') throw new Error('scenario must be fees or settings');
  const seconds = Number(secondsText);
  const settings = loadBenchSettings();
  const world = await BenchWorld.create(settings);
  const systems = new Systems(world, settings);
  try {
    const tenant = await world.createTenant();
    const ids = cardIds(settings.cards);
    const setup = await systems.startFincore('card-api');
    await provisionFincoreCards(setup.url, tenant, ids.length);
    await systems.stop(setup);
    mkdirSync(dir, { recursive: true });
    systems.fincoreEnv.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${dir}`;
    const before = new Set(readdirSync(dir));
    const headers = {
      'x-auth-token': tenant.token,
      ...(what === 'settings' ? { 'x-tenant-code': tenant.code } : {}),
    };
    const measure = async (label: string, target: BenchProcess) => {
      const load = (s: number) =>
        runLoad({
          url: target.url,
          connections: settings.connections,
          seconds: s,
          warmupSeconds: 0,
          method: 'POST',
          headers,
          next: what === 'fees' ? feeQuotes(ids) : settingsChanges(ids),
        });
      await load(settings.warmupSeconds);
      const cpuBefore = cpuMs(target.pid);
      const r = await load(seconds);
      const perRequest = (cpuMs(target.pid) - cpuBefore) / r.total;
      process.stdout.write(
        `${label}: ${r.okPerSecond.toFixed(0)} ${what}/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ` +
          `CPU ${perRequest.toFixed(3)} ms per request, answers ${JSON.stringify(r.statusCodes)}\n`,
      );
    };
    const app = await systems.startFincore('card-api');
    await measure('fincore', app);
    await systems.stop(app);
    const written = readdirSync(dir).filter((f) => !before.has(f) && f.endsWith('.cpuprofile'));
    for (const file of written) {
      process.stdout.write(`profile ${join(dir, file)}, top frames (self) of the last ${seconds - 1} s:\n`);
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
      process.stdout.write(`${topFrames(profile, seconds - 1, 20).join('\n')}\n`);
    }
    if (process.env.BENCH_PROFILE_BASELINE === '1') {
      await systems.prepareBaselineSchema();
      await provisionBaselineCards(world, tenant, ids.length);
      await measure('baseline', await systems.startBaselineApi());
    }
  } finally {
    await systems.stopAll();
    await world.destroy();
  }
}

runCommand('profile', main);
