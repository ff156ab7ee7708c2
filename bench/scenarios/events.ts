import { performance } from 'node:perf_hooks';
import { api } from '../support/load';
import { sleep } from '../support/processes';
import { TimingReceiver } from '../support/receiver';
import { percentile } from '../support/report';
import { assertLoopback } from '../support/settings';
import { BenchTenant, BenchWorld } from '../support/world';

export const personIds = (count: number) => Array.from({ length: count }, (_, i) => `bench-person-${i}`);

/** Persons through fincore's API (the set-up only; password hashing is made cheap for it). */
export async function provisionFincorePersons(
  credentialsApi: string,
  tenant: BenchTenant,
  ids: string[],
): Promise<void> {
  const h = { 'x-auth-token': tenant.token };
  for (let i = 0; i < ids.length; i += 20) {
    await Promise.all(
      ids.slice(i, i + 20).map((personId, j) =>
        api(
          credentialsApi,
          'POST',
          '/api/v1/persons',
          {
            personId,
            username: `bench.user.${i + j}`,
            password: 'Tr0ub4dor & 3 horses',
            lastName: 'Initial',
          },
          h,
        ),
      ),
    );
  }
}

export async function provisionBaselinePersons(
  world: BenchWorld,
  tenant: BenchTenant,
  ids: string[],
): Promise<void> {
  await world.query(
    `INSERT INTO baseline.persons (tenant_id, person_id, last_name) SELECT $1, id, 'Initial' FROM unnest($2::text[]) AS id`,
    [tenant.tenantId, ids],
  );
}

export interface EventRun {
  sent: number;
  ok: number;
  statusCodes: Record<string, number>;
  /** Person updates answered per second while driving. */
  apiPerSecond: number;
  delivered: number;
  /** Webhooks delivered per second, first request sent to last webhook arrived. */
  deliveredPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Every answered change got its webhook within the time limit. */
  complete: boolean;
  duplicates: number;
}

/**
 * Sends one PATCH per person (lastName changes, so each emits one PERSON_UPDATED), `connections`
 * at a time, notes when each answer arrived, then waits for the webhooks: latency = webhook
 * arrival - API response, per person.
 */
export async function driveEvents(options: {
  url: string;
  token: string;
  ids: string[];
  connections: number;
  receiver: TimingReceiver;
  receiverPath: string;
  timeoutMs: number;
}): Promise<EventRun> {
  assertLoopback(options.url, 'events target');
  const answeredAt = new Map<string, number>();
  const statusCodes: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  const duplicatesBefore = options.receiver.duplicates.get(options.receiverPath) ?? 0;
  const client = async () => {
    while (next < options.ids.length) {
      const personId = options.ids[next++];
      const r = await fetch(`${options.url}/api/v1/persons/${personId}`, {
        method: 'PATCH',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-auth-token': options.token,
        },
        body: JSON.stringify({ lastName: `Changed ${personId}` }),
      }).catch(() => undefined);
      const status = r ? String(r.status) : 'error';
      if (r) await r.arrayBuffer();
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (r?.status === 200) answeredAt.set(personId, performance.now());
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  const driven = performance.now();

  const deadline = driven + options.timeoutMs;
  const arrivals = options.receiver.on(options.receiverPath);
  const arrived = () => [...answeredAt.keys()].filter((id) => arrivals.has(id)).length;
  while (arrived() < answeredAt.size && performance.now() < deadline) await sleep(50);
  const latencies: number[] = [];
  let last = driven;
  for (const [personId, answered] of answeredAt) {
    const at = arrivals.get(personId);
    if (at === undefined) continue;
    latencies.push(at - answered);
    last = Math.max(last, at);
  }
  latencies.sort((a, b) => a - b);
  return {
    sent: options.ids.length,
    ok: answeredAt.size,
    statusCodes,
    apiPerSecond: answeredAt.size / ((driven - started) / 1000),
    delivered: latencies.length,
    deliveredPerSecond: latencies.length / ((last - started) / 1000),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    complete: latencies.length === answeredAt.size && answeredAt.size === options.ids.length,
    duplicates: (options.receiver.duplicates.get(options.receiverPath) ?? 0) - duplicatesBefore,
  };
}

/** Waits until the notifier has handled every domain event in the outbox (nothing left over from the set-up). */
export async function outboxDrained(world: BenchWorld, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [{ n }] = await world.query<{ n: string }>(
      `SELECT count(*) AS n FROM events.outbox WHERE processed_at IS NULL`,
    );
    if (Number(n) === 0) return true;
    await sleep(200);
  }
  return false;
}

/** Turns PERSON_UPDATED webhooks on for the tenant and registers one endpoint at `url`. */
export async function subscribeWebhooks(
  notificationApi: string,
  tenant: BenchTenant,
  url: string,
): Promise<void> {
  const h = { 'x-auth-token': tenant.token };
  await api(
    notificationApi,
    'PUT',
    '/api/v1/notification-config/enable',
    { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' },
    h,
  );
  await api(
    notificationApi,
    'POST',
    '/api/v1/webhook-endpoints',
    { url, notificationTypeCodes: ['PERSON_UPDATED'] },
    h,
  );
}
