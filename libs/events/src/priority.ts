/** BullMQ's lowest priority; jobs without one (0) would run before every prioritised job. */
const LOWEST_PRIORITY = 2 ** 21;

/**
 * The BullMQ priority of a tenant's jobs from its backlog (work of the tenant already waiting):
 * 1 (the highest) for a tenant with none, then one step per doubling. A flooded tenant's jobs sort
 * behind every fresh event of a quiet tenant, and jobs of one priority keep their order (FIFO),
 * so a tenant's own jobs are not reordered among themselves while its backlog stays in a bucket.
 */
export function backlogPriority(backlog: number): number {
  if (!Number.isFinite(backlog) || backlog <= 0) return 1;
  return Math.min(LOWEST_PRIORITY, 1 + Math.floor(Math.log2(backlog + 1)));
}

/**
 * Priorities for a batch of one tenant's or several tenants' jobs added at once (events published
 * together): each from the number of jobs of its tenant in the batch besides itself, so a lone
 * event gets 1 and a tenant's burst of thousands sorts behind it.
 */
export function priorityPerTenant(tenants: readonly string[]): number[] {
  const counts = new Map<string, number>();
  for (const tenant of tenants) counts.set(tenant, (counts.get(tenant) ?? 0) + 1);
  return tenants.map((tenant) => backlogPriority(counts.get(tenant)! - 1));
}
