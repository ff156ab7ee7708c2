import { Injectable } from '@nestjs/common';
import { backlogPriority } from '@fincore/events';
import { WebhookDeliveryRepository } from '@fincore/notifications';

/** How long a tenant's backlog count is reused: priorities need its size, not its exact value. */
const BACKLOG_TTL_MS = 1000;

/**
 * The priority of a tenant's delivery jobs, from its backlog counted in PostgreSQL and kept for a
 * second, so a flood of fan-outs costs one count per tenant per second. Only job order depends on
 * it: a stale or lost count delays nobody's delivery beyond the bound in the docs.
 */
@Injectable()
export class TenantPriority {
  private readonly cache = new Map<string, { priority: number; until: number }>();

  constructor(private readonly deliveries: WebhookDeliveryRepository) {}

  async of(tenantId: string): Promise<number> {
    const now = Date.now();
    const cached = this.cache.get(tenantId);
    if (cached && cached.until > now) return cached.priority;
    const priority = backlogPriority(await this.deliveries.countPendingOfTenant(tenantId));
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(tenantId, { priority, until: now + BACKLOG_TTL_MS });
    return priority;
  }

  /** Priorities of several tenants, each counted once. */
  async ofAll(tenantIds: readonly string[]): Promise<Map<string, number>> {
    const unique = [...new Set(tenantIds)];
    const priorities = await Promise.all(unique.map((id) => this.of(id)));
    return new Map(unique.map((id, i) => [id, priorities[i]]));
  }
}
