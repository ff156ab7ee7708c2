import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Size V8's young generation (both semi-spaces) may reach in the notifier. Left alone it grows to
 * 64 MiB on a large machine while the app loads and keeps it: a third of an idle notifier's
 * resident memory. Held at 2 MiB, the jobs' short-lived objects are scavenged so often that the
 * notifier spends about a fifth more CPU per webhook; at 16 MiB its garbage collection costs about
 * what it costs unbounded (`node dist-bench/bench/profile-notifier.js`). V8 reads its maximum only at
 * start, but the growth factor at every scavenge: the cap is kept through the factor, because the
 * process is started as `node main.js` and its command line is not ours to set.
 */
export const YOUNG_GENERATION_CAP_BYTES = 16 * 2 ** 20;

/** Whether the operator chose a semi-space setting, on the command line or in NODE_OPTIONS: it wins. */
export function semiSpaceChosen(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): boolean {
  return [...execArgv, nodeOptions].some((option) => option.includes('semi-space'));
}

export function youngGenerationSize(spaces = getHeapSpaceStatistics()): number {
  return spaces.find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** While the app loads: whatever survives loading goes to the old generation anyway. */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Once the app runs: V8 doubles the young generation as it sees fit, up to `cap`, and halves it
 * when allocation slows; after each collection the growth is allowed again or stopped, by size.
 */
export function letYoungGenerationGrow(cap = YOUNG_GENERATION_CAP_BYTES): PerformanceObserver | undefined {
  if (semiSpaceChosen()) return undefined;
  let growing = false;
  const decide = () => {
    const grow = youngGenerationSize() < cap;
    if (grow === growing) return;
    growing = grow;
    setFlagsFromString(`--semi-space-growth-factor=${grow ? 2 : 1}`);
  };
  decide();
  const observer = new PerformanceObserver(decide);
  observer.observe({ entryTypes: ['gc'] });
  return observer;
}

// On import, so that main.ts, importing this first, holds it before anything else is loaded.
if (!semiSpaceChosen()) holdYoungGeneration();
