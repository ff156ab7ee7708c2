import { Queue } from 'bullmq';
import { mapInBatches, queuePrefix, QueueName, redisConnectionOptions } from '@fincore/events';
import { percentile } from './report';
import { BenchWorld } from './world';

/**
 * Where a webhook's time goes inside fincore (all clocks are this machine's), read afterwards from
 * the rows it writes and from its event's `domain-events` job, which Redis keeps once completed:
 * - the change's statement (`published_at`, the outbox row is written published) to its job being
 *   added (the job's timestamp: the commit, the answer and the enqueue after it);
 * - the job waiting in Redis for one of the fan-out worker's slots (to its `processedOn`);
 * - the worker's wait for the claim statement (`processed_at`: claims run one at a time, events
 *   arriving meanwhile go together in the next);
 * - the claim to the first attempt's start, the attempt itself (signing and the HTTP exchange), and
 *   its answer to the success being recorded (the batch window and statement; not on the
 *   subscriber's path).
 */
const STAGES_SQL = `
  SELECT o.id, o.published_at, o.processed_at, a.started_at,
         a.started_at + a.duration_ms * interval '1 millisecond' AS answered_at, d.updated_at AS recorded_at
    FROM notifications.webhook_deliveries d
    JOIN notifications.webhook_endpoints e ON e.id = d.endpoint_id
    JOIN events.outbox o ON o.id = d.event_id
    JOIN notifications.webhook_delivery_attempts a ON a.delivery_id = d.id AND a.attempt_number = 1
   WHERE e.url LIKE '%' || $1 AND d.created_at >= $2 AND d.status = 'SUCCEEDED'`;

interface WebhookTimes {
  id: string;
  published_at: Date;
  processed_at: Date;
  started_at: Date;
  answered_at: Date;
  recorded_at: Date;
}

/** Added and taken by a worker, per event id; missing when the job is gone. */
async function jobTimes(
  world: BenchWorld,
  redisUrl: string,
  ids: readonly string[],
): Promise<Map<string, { added: number; taken: number }>> {
  const queue = new Queue(QueueName.DomainEvents, {
    connection: redisConnectionOptions(redisUrl),
    prefix: queuePrefix(world.queuePrefix),
  });
  try {
    const jobs = await mapInBatches(ids, 100, (id) => queue.getJob(id));
    const times = new Map<string, { added: number; taken: number }>();
    for (const job of jobs)
      if (job?.id && job.processedOn) times.set(job.id, { added: job.timestamp, taken: job.processedOn });
    return times;
  } finally {
    await queue.close();
  }
}

/** The stages of the webhooks to endpoints whose URL ends in `path`, fanned out since `since`, as one line. */
export async function deliveryStages(
  world: BenchWorld,
  redisUrl: string,
  path: string,
  since: Date,
): Promise<string> {
  const rows = await world.query<WebhookTimes>(STAGES_SQL, [path, since]);
  if (!rows.length) return 'no succeeded deliveries to read stages from';
  const jobs = await jobTimes(
    world,
    redisUrl,
    rows.map((r) => r.id),
  );
  const job = (r: WebhookTimes) => jobs.get(r.id) ?? { added: NaN, taken: NaN };
  const stages: Array<[string, (r: WebhookTimes) => number]> = [
    ['change -> job added', (r) => job(r).added - +r.published_at],
    ['queue wait', (r) => job(r).taken - job(r).added],
    ['claim wait', (r) => +r.processed_at - job(r).taken],
    ['claim -> attempt', (r) => +r.started_at - +r.processed_at],
    ['attempt', (r) => +r.answered_at - +r.started_at],
    ['answer -> recorded', (r) => +r.recorded_at - +r.answered_at],
  ];
  const line = stages.map(([name, ms]) => {
    const sorted = rows
      .map(ms)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    return `${name} ${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)}`;
  });
  const missing = rows.length - jobs.size;
  const gone = missing ? ` (${missing} jobs gone from Redis: their first three stages are left out)` : '';
  return `stages inside fincore, p50 / p99 ms over ${rows.length} webhooks${gone}: ${line.join(', ')}`;
}
