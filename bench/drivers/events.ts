import { performance } from 'node:perf_hooks';
import { api } from '../support/load';
import { sleep } from '../support/processes';
import { TimingReceiver } from '../support/receiver';
import { percentile } from '../support/report';
import { assertLoopback, BenchSettings } from '../support/settings';
import { BenchTenant, BenchWorld } from '../support/world';

export const personIds = (count: number) => Array.from({ length: count }, (_, i) => `bench-person-${i}`);
/** Persons changed before the measured ones (a tenth, at most 200). */
export const warmIds = (settings: Pick<BenchSettings, 'events'>) =>
  Array.from({ length: Math.min(200, Math.ceil(settings.events / 10)) }, (_, i) => `bench-warm-${i}`);
/** Changes that warm fresh processes up before a run measures them. */
export const WARM_UP_CHANGES = 100;
/** Endpoints per tenant in the fan-out scenario. */
export const FANOUT_ENDPOINTS = 10;

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
  /** Webhooks that arrived (one per change and endpoint). */
  delivered: number;
  /** Webhooks delivered per second, first request sent to last webhook arrived. */
  deliveredPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Every change was answered 200 and got all its webhooks within the time limit. */
  complete: boolean;
  duplicates: number;
  /** Where the time went inside the system, where it can tell (one line). */
  stages?: string;
}

/** Where and how a run sends its person changes, and where their webhooks arrive. */
export interface EventDrive {
  url: string;
  token: string;
  ids: string[];
  receiver: TimingReceiver;
  /** Receiver paths of the system's endpoints: every change is delivered once to each. */
  receiverPaths: string[];
  timeoutMs: number;
  /** Part of the new last name, so a person changed by an earlier run changes again. */
  tag?: string;
}

/** One PATCH of a person's last name (emits one PERSON_UPDATED); the status, or 'error'. */
export async function changePerson(
  drive: Pick<EventDrive, 'url' | 'token' | 'tag'>,
  personId: string,
): Promise<string> {
  const r = await fetch(`${drive.url}/api/v1/persons/${personId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-auth-token': drive.token },
    body: JSON.stringify({ lastName: `Changed ${drive.tag ?? ''}${personId}` }),
  }).catch(() => undefined);
  if (r) await r.arrayBuffer();
  return r ? String(r.status) : 'error';
}

/**
 * Sends one PATCH per person (lastName changes, so each emits one PERSON_UPDATED), `connections`
 * at a time, notes when each answer arrived, then waits for the webhooks: latency = webhook
 * arrival - API response, per person (the last of its webhooks when there are several endpoints).
 */
export async function driveEvents(options: EventDrive & { connections: number }): Promise<EventRun> {
  assertLoopback(options.url, 'events target');
  const answeredAt = new Map<string, number>();
  const statusCodes: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  const duplicatesBefore = duplicatesOn(options);
  const client = async () => {
    while (next < options.ids.length) {
      const personId = options.ids[next++];
      const status = await changePerson(options, personId);
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (status === '200') answeredAt.set(personId, performance.now());
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  return collectWebhooks(options, answeredAt, statusCodes, started, performance.now(), duplicatesBefore);
}

/** A run at a fixed offered rate: how far the webhooks lag behind it. */
export interface RateRun extends EventRun {
  offeredPerSecond: number;
  /** Last webhook arrived minus last answer: the backlog left when the load stopped. */
  drainMs: number;
}

/**
 * Open loop: sends the person changes at `perSecond` whatever the answers (at most 500 in flight),
 * then waits for the webhooks. A system that keeps up delivers at the offered rate, and its
 * latency stays flat instead of growing with a queue.
 */
export async function driveEventsAtRate(options: EventDrive & { perSecond: number }): Promise<RateRun> {
  assertLoopback(options.url, 'events target');
  const answeredAt = new Map<string, number>();
  const statusCodes: Record<string, number> = {};
  const started = performance.now();
  const duplicatesBefore = duplicatesOn(options);
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; i < options.ids.length; i++) {
    const due = started + (i * 1000) / options.perSecond;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    while (inFlight.size >= 500) await Promise.race(inFlight);
    const personId = options.ids[i];
    const sent: Promise<void> = changePerson(options, personId).then((status) => {
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (status === '200') answeredAt.set(personId, performance.now());
      inFlight.delete(sent);
    });
    inFlight.add(sent);
  }
  await Promise.all(inFlight);
  const driven = performance.now();
  const run = await collectWebhooks(options, answeredAt, statusCodes, started, driven, duplicatesBefore);
  const lastAnswer = Math.max(...answeredAt.values());
  const lastArrival = Math.max(
    ...options.receiverPaths.flatMap((path) => [...options.receiver.on(path).values()]),
  );
  return { ...run, offeredPerSecond: options.perSecond, drainMs: Math.max(0, lastArrival - lastAnswer) };
}

function duplicatesOn(drive: EventDrive): number {
  return drive.receiverPaths.reduce((sum, path) => sum + (drive.receiver.duplicates.get(path) ?? 0), 0);
}

/** Waits for the webhooks of the answered changes, then times them. */
async function collectWebhooks(
  drive: EventDrive,
  answeredAt: Map<string, number>,
  statusCodes: Record<string, number>,
  started: number,
  driven: number,
  duplicatesBefore: number,
): Promise<EventRun> {
  const deadline = driven + drive.timeoutMs;
  const arrivals = drive.receiverPaths.map((path) => drive.receiver.on(path));
  const arrived = () =>
    arrivals.reduce((sum, onPath) => sum + [...answeredAt.keys()].filter((id) => onPath.has(id)).length, 0);
  const expected = answeredAt.size * arrivals.length;
  while (arrived() < expected && performance.now() < deadline) await sleep(50);
  const latencies: number[] = [];
  let delivered = 0;
  let last = driven;
  for (const [personId, answered] of answeredAt) {
    const at = arrivals.map((onPath) => onPath.get(personId)).filter((t) => t !== undefined);
    delivered += at.length;
    if (at.length) last = Math.max(last, ...at);
    if (at.length === arrivals.length) latencies.push(Math.max(...at) - answered);
  }
  latencies.sort((a, b) => a - b);
  return {
    sent: drive.ids.length,
    ok: answeredAt.size,
    statusCodes,
    apiPerSecond: answeredAt.size / ((driven - started) / 1000),
    delivered,
    deliveredPerSecond: delivered / ((last - started) / 1000),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    complete: delivered === expected && answeredAt.size === drive.ids.length,
    duplicates: duplicatesOn(drive) - duplicatesBefore,
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

/** Makes the tenant's endpoints exactly `urls` (PERSON_UPDATED each): deletes the others, creates these. */
export async function useEndpoints(
  notificationApi: string,
  tenant: BenchTenant,
  urls: string[],
): Promise<void> {
  const h = { 'x-auth-token': tenant.token };
  const { body } = await api<{ items: Array<{ id: string }> }>(
    notificationApi,
    'GET',
    '/api/v1/webhook-endpoints',
    undefined,
    h,
  );
  for (const e of body.items)
    await api(notificationApi, 'DELETE', `/api/v1/webhook-endpoints/${e.id}`, undefined, h, [200, 204]);
  for (const url of urls)
    await api(
      notificationApi,
      'POST',
      '/api/v1/webhook-endpoints',
      { url, notificationTypeCodes: ['PERSON_UPDATED'] },
      h,
    );
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
