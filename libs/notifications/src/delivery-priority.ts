/** BullMQ's lowest priority; jobs without one (0) would run before every prioritised job. */
const LOWEST_PRIORITY = 2 ** 21;

/**
 * The BullMQ priority of a tenant's delivery jobs from its backlog (its pending deliveries):
 * 1 (the highest) for a tenant with none, then one step per doubling. A flooded tenant's jobs sort
 * behind every fresh event of a quiet tenant, and jobs of one priority keep their order (FIFO),
 * so a tenant's own deliveries are not reordered among themselves while its backlog stays in a bucket.
 */
export function deliveryPriority(backlog: number): number {
  if (!Number.isFinite(backlog) || backlog <= 0) return 1;
  return Math.min(LOWEST_PRIORITY, 1 + Math.floor(Math.log2(backlog + 1)));
}
