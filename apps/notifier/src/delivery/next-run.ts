import type { PendingDelivery } from '@fincore/notifications';

/**
 * What the job does next: nothing (finished or not ours), or run again at a time. A finished
 * delivery of an ordered endpoint names the next one of its chain, whose job may run now.
 */
export type NextRun = { kind: 'done'; wake?: PendingDelivery } | { kind: 'run_at'; at: Date };

export const DONE: NextRun = { kind: 'done' };
