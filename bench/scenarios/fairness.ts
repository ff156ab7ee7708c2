import { sleep } from '../support/processes';
import { BenchWorld } from '../support/world';

/**
 * Commits `count` PERSON_UPDATED events of the tenant in one statement, as one bulk change
 * would: a backlog the relay publishes and the notifier fans out into as many deliveries.
 */
export async function commitBacklog(world: BenchWorld, tenantCode: string, count: number): Promise<void> {
  await world.query(
    `INSERT INTO events.outbox (id, type, tenant_code, occurred_at, data, subject_type, subject_id)
     SELECT gen_random_uuid(), 'PERSON_UPDATED', $1, now(),
            jsonb_build_object('personId', 'flood-' || i, 'changedFields', jsonb_build_array('lastName')),
            'person', 'flood-' || i
       FROM generate_series(1, $2) AS i`,
    [tenantCode, count],
  );
}

/** The tenant's deliveries still pending: its backlog. */
export async function pendingDeliveries(world: BenchWorld, tenantId: string): Promise<number> {
  const [{ n }] = await world.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notifications.webhook_deliveries WHERE tenant_id = $1 AND status = 'PENDING'`,
    [tenantId],
  );
  return n;
}

/** Waits until the tenant has at least `count` deliveries pending (its backlog fanned out); answers the backlog. */
export async function backlogBuilt(
  world: BenchWorld,
  tenantId: string,
  count: number,
  timeoutMs: number,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [{ n }] = await world.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications.webhook_deliveries WHERE tenant_id = $1`,
      [tenantId],
    );
    if (n >= count) return pendingDeliveries(world, tenantId);
    await sleep(200);
  }
  throw new Error(`the backlog of ${count} events was not fanned out within ${timeoutMs / 1000} s`);
}
