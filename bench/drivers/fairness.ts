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

/** The tenant's work still waiting: events not fanned out yet, and deliveries pending. */
export async function backlogOf(
  world: BenchWorld,
  tenant: { tenantId: string; code: string },
): Promise<{ events: number; deliveries: number }> {
  const [row] = await world.query<{ events: number; deliveries: number }>(
    `SELECT (SELECT count(*)::int FROM events.outbox WHERE tenant_code = $2 AND processed_at IS NULL) AS events,
            (SELECT count(*)::int FROM notifications.webhook_deliveries WHERE tenant_id = $1 AND status = 'PENDING') AS deliveries`,
    [tenant.tenantId, tenant.code],
  );
  return row;
}

/** Waits until the tenant has at least `count` pending deliveries: its backlog reached the delivery queue. */
export async function deliveriesPiledUp(
  world: BenchWorld,
  tenant: { tenantId: string; code: string },
  count: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await backlogOf(world, tenant)).deliveries >= count) return;
    await sleep(200);
  }
  throw new Error(`${count} deliveries did not pile up within ${timeoutMs / 1000} s`);
}
