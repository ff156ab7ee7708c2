import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { BenchTenant, BenchWorld } from '../support/world';

/** Rows per statement of the bulk set-up: large enough to be quick, small enough for one transaction. */
const INSERT_BATCH = 100_000;

/**
 * Appends deliveries `from` .. `to` - 1 to the backlog of `endpointId`: for each, the processed
 * PERSON_UPDATED event in the outbox and its PENDING delivery, as the fan-out writes them (the
 * columns of its insert, never attempted, due since their creation an hour ago): what piles up
 * while an endpoint is down. Person `backlog-<i>`, by which the receiver tells the webhooks apart.
 * In batches, one statement each.
 */
export async function appendBacklog(
  world: BenchWorld,
  tenant: BenchTenant,
  endpointId: string,
  from: number,
  to: number,
): Promise<void> {
  for (let start = from; start < to; start += INSERT_BATCH) {
    await world.query(
      `WITH event AS (
         INSERT INTO events.outbox (id, type, tenant_code, occurred_at, correlation_id, data, subject_type, subject_id,
                                    published_at, publish_attempts, processed_at)
         SELECT gen_random_uuid(), 'PERSON_UPDATED', $1, now() - interval '1 hour', NULL,
                jsonb_build_object('personId', p.id, 'changedFields', jsonb_build_array('lastName'),
                                   'person', jsonb_build_object('personId', p.id, 'lastName', 'Backlog')),
                'person', p.id, now() - interval '1 hour', 1, now() - interval '1 hour'
           FROM (SELECT 'backlog-' || i AS id FROM generate_series($4::int, $5::int - 1) AS i) p
         RETURNING id, type, occurred_at, subject_type, subject_id)
       INSERT INTO notifications.webhook_deliveries
         (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, next_attempt_at,
          created_at, updated_at, subject_type, subject_id, sequence)
       SELECT gen_random_uuid(), $2, $3, event.id, event.type, event.occurred_at, 'PENDING', event.occurred_at,
              event.occurred_at, event.occurred_at, event.subject_type, event.subject_id, NULL
         FROM event`,
      [tenant.code, tenant.tenantId, endpointId, start, Math.min(to, start + INSERT_BATCH)],
    );
  }
}

/** One statement a repository ran, with its parameters. */
export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

/**
 * Stands in for a repository's DataSource to learn which statements a method runs, without running
 * them: plain queries and prepared ones (the pool's `query({ text, values })`) are recorded and
 * answer no rows. The benchmark then EXPLAINs exactly what the product would send.
 */
export async function statementsOf(call: (db: DataSource) => Promise<unknown>): Promise<RecordedStatement[]> {
  const recorded: RecordedStatement[] = [];
  const query = async (sql: string, params: unknown[] = []) => {
    recorded.push({ sql, params });
    return [];
  };
  const db = {
    query,
    driver: {
      master: {
        query: async (q: { text: string; values: unknown[] }) => ({ rows: await query(q.text, q.values) }),
      },
    },
  };
  (db as Record<string, unknown>).manager = db;
  // A method that goes on after its first statement answered nothing may throw: what it ran until then counts.
  await call(db as unknown as DataSource).catch(() => undefined);
  return recorded;
}

/** EXPLAIN (ANALYZE, BUFFERS) of `statement` in a transaction that is rolled back: writes leave nothing behind. */
export async function explainAnalyze(
  world: BenchWorld,
  statement: RecordedStatement,
  before?: (client: Client) => Promise<void>,
): Promise<{ plan: string; executionMs: number }> {
  const client = new Client({ connectionString: world.databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await before?.(client);
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`,
      statement.params,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
    return { plan, executionMs };
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  }
}
