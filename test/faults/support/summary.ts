import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeliveryFigures } from './ledger';

/** Git-ignored; one file per scenario while the run lasts, folded into faults-summary.json at its end. */
export const ARTIFACTS = join(__dirname, '..', '..', 'artifacts');
const SCENARIOS = join(ARTIFACTS, 'faults');

export function summaryLine(f: DeliveryFigures): string {
  return (
    `${f.scenario}: committed ${f.committed}, acknowledged ${f.acknowledged}, received ${f.received}, ` +
    `missing ${f.missing}, duplicates ${f.duplicates} (bound ${f.duplicateBound}, ` +
    `${f.duplicatesOutsideFaults ?? 0} first sent outside a fault)${busy(f)}, ` +
    `unacknowledged but delivered ${f.unacknowledgedDelivered}, ` +
    `unverified ${f.unverified}, settled ${f.settleSeconds} s after the stream, answers ${JSON.stringify(f.statuses)}, ` +
    `${f.durationSeconds} s in all; faults: ${(f.faults ?? []).join(', ')}` +
    (f.notes ? `; ${f.notes}` : '')
  );
}

const busy = (f: DeliveryFigures) =>
  f.unfinishedJobs && Object.keys(f.unfinishedJobs).length
    ? ` (jobs still unfinished: ${JSON.stringify(f.unfinishedJobs)})`
    : '';

/** Prints the scenario's line and keeps its figures for the run's summary. */
export function recordFigures(figures: DeliveryFigures): void {
  mkdirSync(SCENARIOS, { recursive: true });
  const file = figures.scenario.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  writeFileSync(join(SCENARIOS, `${file}.json`), JSON.stringify(figures, null, 2));
  process.stdout.write(`[faults] ${summaryLine(figures)}\n`);
}

/** Every scenario recorded in this run, in name order. */
export function recordedFigures(): DeliveryFigures[] {
  let files: string[];
  try {
    files = readdirSync(SCENARIOS).filter((f) => f.endsWith('.json'));
  } catch {
    return []; // no scenario ran
  }
  return files.sort().map((f) => JSON.parse(readFileSync(join(SCENARIOS, f), 'utf8')) as DeliveryFigures);
}

export function writeSummary(): DeliveryFigures[] {
  const figures = recordedFigures();
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(
    join(ARTIFACTS, 'faults-summary.json'),
    JSON.stringify({ finishedAt: new Date().toISOString(), scenarios: figures }, null, 2),
  );
  return figures;
}
