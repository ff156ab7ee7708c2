import { endBacklog } from '../drivers/fairness';
import { api } from '../support/load';
import { percentile } from '../support/report';
import { latencyRow, log, reason, Scenario } from './scenario';

const DELIVERIES = 100_000;
const REQUESTS = 200;
const NO_BASELINE = 'the baseline has no delivery reads';

/**
 * The portal's reads for a tenant holding DELIVERIES deliveries to one endpoint, spread over the
 * last seven days (8 in 10 succeeded, 1 failed, 1 pending): a page of the deliveries list, the
 * next page by cursor, the failed ones, and the endpoint's statistics over 24 hours and 7 days,
 * each REQUESTS times one after the other. Target: p95 within 100 ms.
 */
export const portalReads: Scenario = {
  name: 'portal-reads',
  async run({ systems, tenant, world }) {
    const row = latencyRow('portal-reads', NO_BASELINE);
    const h = { 'x-auth-token': tenant.token };
    let notifications;
    try {
      log('portal-reads: starting notification-api');
      notifications = await systems.startFincore('notification-api');
      const { url } = notifications;
      const endpoint = (
        await api<{ id: string }>(
          url,
          'POST',
          '/api/v1/webhook-endpoints',
          { url: 'http://127.0.0.1:9/portal' },
          h,
        )
      ).body;
      log(`portal-reads: ${DELIVERIES} deliveries`);
      await world.query(
        `INSERT INTO notifications.webhook_deliveries
           (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status,
            attempt_count, created_at, updated_at)
         SELECT gen_random_uuid(), $1, $2, gen_random_uuid(), 'PERSON_UPDATED', at,
                CASE i % 10 WHEN 0 THEN 'FAILED' WHEN 1 THEN 'PENDING' ELSE 'SUCCEEDED' END, 1, at, at
           FROM generate_series(1, $3::int) i, LATERAL (SELECT now() - i * (interval '7 days' / $3::int) AS at) t`,
        [tenant.tenantId, endpoint.id, DELIVERIES],
      );
      await world.analyze();
      const first = await api(url, 'GET', '/api/v1/webhook-deliveries?limit=50', undefined, h);
      const reads: Array<[string, string]> = [
        ['deliveries, first page of 50', '/api/v1/webhook-deliveries?limit=50'],
        [
          'deliveries, next page by cursor',
          `/api/v1/webhook-deliveries?limit=50&cursor=${first.body.nextCursor}`,
        ],
        ['deliveries, failed only', '/api/v1/webhook-deliveries?limit=50&status=FAILED'],
        ['endpoint statistics, 24 hours', `/api/v1/webhook-endpoints/${endpoint.id}/stats?window=24h`],
        ['endpoint statistics, 7 days', `/api/v1/webhook-endpoints/${endpoint.id}/stats?window=7d`],
      ];
      const rows = [];
      for (const [name, path] of reads) {
        const times = await timed(url, path, h);
        rows.push(
          row(`${name} p95`, percentile(times, 95), undefined, [
            `${name}: p50 ${percentile(times, 50).toFixed(1)} ms`,
          ]),
        );
      }
      rows[0].notes!.unshift(
        `fincore: ${DELIVERIES} deliveries of one tenant, ${REQUESTS} reads each one after the other; target p95 <= 100 ms`,
      );
      return rows;
    } catch (error) {
      log(`portal-reads: not measured: ${reason(error)}`);
      return [row('deliveries, first page of 50 p95', undefined, undefined, [reason(error)])];
    } finally {
      if (notifications) await systems.stop(notifications);
      // Its pending deliveries (to a port nobody listens on) would otherwise be attempted, and retried,
      // by every later stage's notifier, inside their measurements.
      await endBacklog(world, tenant);
    }
  },
};

/** REQUESTS answers of one read in a row, each 200; their times in milliseconds, sorted. */
async function timed(url: string, path: string, headers: Record<string, string>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const r = await fetch(`${url}${path}`, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}
