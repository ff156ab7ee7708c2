import type { ChangeStream } from './change-stream';
import type { DeliveryFigures } from './ledger';

/** What `FaultWorld.settle` answers. */
export interface Settled {
  figures: DeliveryFigures;
  missing: string[];
  reusedChanges: string[];
  /** Duplicates first accepted outside every fault's window; reported, see `expectLedger`. */
  duplicatesOutsideFaults: string[];
}

export interface LedgerRules {
  /** The answers callers may get in this scenario; 0 stands for no answer at all. */
  statuses: number[];
  /** Counts that prove the fault met the traffic (a 503, a delivery cut short…); each must be above 0. */
  evidence: Record<string, number>;
  /** Committed changes the stream must have made for the scenario to say anything. */
  atLeast?: number;
}

/**
 * The guarantees every fault scenario holds: every committed event (acknowledged or not) arrived
 * verified at every endpoint and every acknowledged change was committed; no change under two
 * webhook-ids; no more duplicates than the faults can catch in flight; both queues empty; only
 * the answers the scenario allows; and the fault met the traffic. When each duplicate was first
 * accepted is reported, not asserted: on a machine loaded far beyond its cores, some arrive
 * seconds after a Redis restart ended (see docs/notifications.md).
 */
export function expectLedger(settled: Settled, stream: ChangeStream, rules: LedgerRules): void {
  const { figures } = settled;
  expect(figures.committed).toBeGreaterThan(rules.atLeast ?? 100);
  expect({
    unexpectedStatuses: [...stream.statuses.keys()].filter((s) => !rules.statuses.includes(s)),
    missing: settled.missing,
    reusedChanges: settled.reusedChanges,
    unfinishedJobs: figures.unfinishedJobs ?? {},
    unverified: figures.unverified,
    faultsMissedTheTraffic: Object.keys(rules.evidence).filter((what) => !(rules.evidence[what] > 0)),
  }).toEqual({
    unexpectedStatuses: [],
    missing: [],
    reusedChanges: [],
    unfinishedJobs: {},
    unverified: 0,
    faultsMissedTheTraffic: [],
  });
  expect(figures.duplicates).toBeLessThanOrEqual(figures.duplicateBound);
}

/** How often callers got `status`. */
export const answered = (stream: ChangeStream, status: number) => stream.statuses.get(status) ?? 0;
