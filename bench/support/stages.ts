import { BenchWorld } from './world';

/**
 * Where a webhook's time goes inside fincore, read from the rows it writes (all clocks are this
 * machine's): the change's commit (`published_at`, the outbox row is written published) to the
 * fan-out claiming it (`processed_at`), the fan-out to the first attempt's start, the attempt
 * itself (signing and the HTTP exchange), and its answer to the success being recorded (the
 * batch window and statement; not on the subscriber's path).
 */
const STAGES_SQL = `
  WITH d AS (
    SELECT o.published_at, o.processed_at, a.started_at,
           a.started_at + a.duration_ms * interval '1 millisecond' AS answered_at, d.updated_at AS recorded_at
      FROM notifications.webhook_deliveries d
      JOIN notifications.webhook_endpoints e ON e.id = d.endpoint_id
      JOIN events.outbox o ON o.id = d.event_id
      JOIN notifications.webhook_delivery_attempts a ON a.delivery_id = d.id AND a.attempt_number = 1
     WHERE e.url LIKE '%' || $1 AND d.created_at >= $2 AND d.status = 'SUCCEEDED')
  SELECT stage, count(*)::int AS n,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50,
         percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99
    FROM d, LATERAL (VALUES
      (1, 'commit -> fan-out', extract(epoch FROM processed_at - published_at) * 1000),
      (2, 'fan-out -> attempt', extract(epoch FROM started_at - processed_at) * 1000),
      (3, 'attempt', extract(epoch FROM answered_at - started_at) * 1000),
      (4, 'answer -> recorded', extract(epoch FROM recorded_at - answered_at) * 1000)) AS s(i, stage, ms)
   GROUP BY i, stage ORDER BY i`;

/** The stages of the webhooks to endpoints whose URL ends in `path`, fanned out since `since`, as one line. */
export async function deliveryStages(world: BenchWorld, path: string, since: Date): Promise<string> {
  const rows = await world.query<{ stage: string; n: number; p50: number; p99: number }>(STAGES_SQL, [
    path,
    since,
  ]);
  if (!rows.length) return 'no succeeded deliveries to read stages from';
  const stages = rows.map((r) => `${r.stage} ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)}`).join(', ');
  return `stages inside fincore, p50 / p99 ms over ${rows[0].n} webhooks: ${stages}`;
}
