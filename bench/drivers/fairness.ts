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

/**
 * Ends what is left of the tenant's backlog once it has been measured: its events count as
 * handled and its pending deliveries as failed, so the stages after this one, whose API processes
 * would publish the events again, measure only their own work.
 */
export async function endBacklog(
  world: BenchWorld,
  tenant: { tenantId: string; code: string },
): Promise<void> {
  await world.query(
    `UPDATE events.outbox SET published_at = coalesce(published_at, now()), processed_at = now()
      WHERE tenant_code = $1 AND processed_at IS NULL`,
    [tenant.code],
  );
  await world.query(
    `UPDATE notifications.webhook_deliveries
        SET status = 'FAILED', next_attempt_at = NULL, last_error = 'the benchmark ended the backlog', updated_at = now()
      WHERE tenant_id = $1 AND status = 'PENDING'`,
    [tenant.tenantId],
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
