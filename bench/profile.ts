/**
 * `npm run build && npm run build:bench && node dist-bench/bench/profile.js <fees|settings|persons>
 * [seconds] [dir]`: the card API (fee quotes, settings changes) or the credentials API (person
 * changes, each emitting one PERSON_UPDATED; no notifier runs, events wait in Redis) under the
 * benchmark's load (20 connections), on a database of its own, started with `node --cpu-prof`.
 * Prints rate, latency and CPU milliseconds per request (from /proc, stable under machine load
 * where rates are not), then the profile's top frames by self time over the measured seconds.
 * BENCH_PROFILE_BASELINE=1 measures and profiles the baseline API too. See docs/performance.md.
 */
import 'reflect-metadata';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  cardIds,
  feeQuotes,
  provisionBaselineCards,
  provisionFincoreCards,
  settingsChanges,
} from './drivers/cards';
import { personIds, provisionBaselinePersons, provisionFincorePersons } from './drivers/events';
import { cpuMs, CpuProfile, topFrames } from './support/cpu-profile';
import { runLoad } from './support/load';
import { BenchProcess } from './support/processes';
import { loadBenchSettings } from './support/settings';
import { Systems } from './support/systems';
import { BenchWorld } from './support/world';
import { runCommand } from './support/entry-point';

async function main(): Promise<void> {
  const [what = 'fees', secondsText = '10', dir = '/tmp/fincore-profile'] = process.argv.slice(2);
  if (what !== 'fees' && what !== 'settings' && what !== 'persons') {
    throw new Error('scenario must be fees, settings or persons');
  }
  const app = what === 'persons' ? 'credentials-api' : 'card-api';
  const seconds = Number(secondsText);
  const settings = loadBenchSettings();
  const world = await BenchWorld.create(settings);
  const systems = new Systems(world, settings);
  try {
    const tenant = await world.createTenant();
    const ids = what === 'persons' ? personIds(settings.events) : cardIds(settings.cards);
    const setup = await systems.startFincore(app);
    if (what === 'persons') await provisionFincorePersons(setup.url, tenant, ids);
    else await provisionFincoreCards(setup.url, tenant, ids.length);
    await systems.stop(setup);
    await world.analyze();
    mkdirSync(dir, { recursive: true });
    const profiling = {
      NODE_OPTIONS: process.env.BENCH_PROFILE_NODE_OPTIONS ?? `--cpu-prof --cpu-prof-dir=${dir}`,
    };
    const headers = {
      'x-auth-token': tenant.token,
      ...(what === 'settings' ? { 'x-tenant-code': tenant.code } : {}),
    };
    /** Loads a freshly started system, stops it, then prints its figures and its profile's top frames. */
    const measure = async (label: string, start: () => Promise<BenchProcess>) => {
      const before = new Set(readdirSync(dir));
      const target = await start();
      const load = (s: number) =>
        runLoad({
          url: target.url,
          connections: settings.connections,
          seconds: s,
          warmupSeconds: 0,
          method: what === 'persons' ? 'PATCH' : 'POST',
          headers,
          next:
            what === 'fees'
              ? feeQuotes(ids)
              : what === 'settings'
                ? settingsChanges(ids)
                : personChanges(ids),
        });
      await load(settings.warmupSeconds);
      const cpuBefore = cpuMs(target.pid);
      const r = await load(seconds);
      const perRequest = (cpuMs(target.pid) - cpuBefore) / r.total;
      await systems.stop(target);
      process.stdout.write(
        `${label}: ${r.okPerSecond.toFixed(0)} ${what}/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ` +
          `CPU ${perRequest.toFixed(3)} ms per request, answers ${JSON.stringify(r.statusCodes)}\n`,
      );
      const written = readdirSync(dir).filter((f) => !before.has(f) && f.endsWith('.cpuprofile'));
      for (const file of written) {
        process.stdout.write(`profile ${join(dir, file)}, top frames (self) of the last ${seconds - 1} s:\n`);
        const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
        process.stdout.write(`${topFrames(profile, seconds - 1, 20).join('\n')}\n`);
      }
    };
    await measure('fincore', () => systems.startFincore(app, profiling));
    if (process.env.BENCH_PROFILE_BASELINE === '1') {
      await systems.prepareBaselineSchema();
      if (what === 'persons') await provisionBaselinePersons(world, tenant, ids);
      else await provisionBaselineCards(world, tenant, ids.length);
      await world.analyze();
      await measure('baseline', () => systems.startBaselineApi(profiling));
    }
  } finally {
    await systems.stopAll();
    await world.destroy();
  }
}

/** Round-robin over the persons, a last name never sent before, so every request is a change. */
function personChanges(ids: string[]): () => { path: string; body: string } {
  const run = performance.now().toFixed(0);
  let n = 0;
  return () => {
    const i = n++;
    return {
      path: `/api/v1/persons/${ids[i % ids.length]}`,
      body: JSON.stringify({ lastName: `Changed ${run}-${i}` }),
    };
  };
}

runCommand('profile', main);
