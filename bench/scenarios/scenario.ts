import { BenchProcess } from '../support/processes';
import { Metric } from '../support/report';
import { BenchSettings } from '../support/settings';
import { Systems } from '../support/systems';
import { BenchTenant, BenchWorld } from '../support/world';

/** What every scenario of one run shares: the world, the processes, and what earlier scenarios left. */
export interface BenchContext {
  settings: BenchSettings;
  world: BenchWorld;
  systems: Systems;
  tenant: BenchTenant;
  baselineApi: BenchProcess;
  /** Persons of the events scenarios, once created in both systems. */
  persons?: string[];
  /** Events per second the baseline delivered in the events scenario (one endpoint). */
  baselineCapacity?: number;
  /** Events per second fincore delivered in the events scenario (one endpoint). */
  fincoreDelivered?: number;
}

/** One scenario, selected by its name in BENCH_ONLY; `S` is what it runs on (the run, or its stage). */
export interface Scenario<S = BenchContext, R = Metric[]> {
  name: string;
  run(on: S): Promise<R>;
}

/**
 * Scenarios that run together because they share processes and set-up (a stage runs those of its
 * scenarios the run wants, in order), or a scenario alone.
 */
export interface Stage {
  names: string[];
  run(ctx: BenchContext, wants: (name: string) => boolean): Promise<Metric[]>;
}

export const alone = (scenario: Scenario): Stage => ({
  names: [scenario.name],
  run: (ctx) => scenario.run(ctx),
});

export const reason = (error: unknown) =>
  ((error as Error).message ?? String(error)).split('\n')[0].slice(0, 160);
export const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** A latency row of one scenario (lower is better), both systems' figure in milliseconds. */
export const latencyRow =
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
