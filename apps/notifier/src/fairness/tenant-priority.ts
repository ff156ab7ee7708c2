import { Injectable } from '@nestjs/common';
import { backlogPriority } from '@fincore/events';
import { WebhookDeliveryFanOutRepository } from '@fincore/notifications';

/** How long a tenant's backlog count is reused: priorities need its size, not its exact value. */
const BACKLOG_TTL_MS = 1000;

/**
 * The priority of a tenant's delivery jobs, from its backlog counted in PostgreSQL and kept for a
 * second, so a flood of fan-outs costs one count per tenant per second. Deliveries this process
 * creates in that second are added to the kept count: a tenant whose thousands of events are fanned
 * out within one second would otherwise keep the priority of its backlog before them, level with a
 * quiet tenant. Deliveries this process finishes are taken off it: a tenant sending one change after
 * another would otherwise pile up a second's worth of them and sort behind a flood's first jobs.
 * Only job order depends on it: a stale or lost count delays nobody's delivery beyond
 * the bound in the docs.
 */
@Injectable()
export class TenantPriority {
  private readonly cache = new Map<string, { backlog: number; until: number }>();

  constructor(private readonly deliveries: WebhookDeliveryFanOutRepository) {}

  /** `created`: deliveries of the tenant this process has just created, counted into its backlog. */
  async of(tenantId: string, created = 0): Promise<number> {
    const now = Date.now();
    let kept = this.cache.get(tenantId);
    if (!kept || kept.until <= now) {
      const backlog = await this.deliveries.countPendingOfTenant(tenantId);
      if (this.cache.size > 10_000) this.cache.clear();
      // The count already holds what was created before it ran.
      kept = { backlog, until: now + BACKLOG_TTL_MS };
      this.cache.set(tenantId, kept);
    } else {
      kept.backlog += created;
    }
    return backlogPriority(kept.backlog);
  }

  /** A delivery of the tenant is no longer pending (succeeded, or failed for good). */
  finished(tenantId: string): void {
    const kept = this.cache.get(tenantId);
    if (kept && kept.backlog > 0) kept.backlog -= 1;
  }

  /** Priorities of several tenants, each counted once. */
  async ofAll(tenantIds: readonly string[]): Promise<Map<string, number>> {
    const unique = [...new Set(tenantIds)];
    const priorities = await Promise.all(unique.map((id) => this.of(id)));
    return new Map(unique.map((id, i) => [id, priorities[i]]));
  }
}
