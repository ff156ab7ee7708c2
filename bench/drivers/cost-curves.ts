import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { EventData, subjectOf } from '@fincore/events';
import { CpuMeter, CpuSpent } from '../support/cpu-meter';
import { BenchEmitter } from '../support/emitter';
import { inBatches } from '../support/batches';
import { sleep } from '../support/processes';
import { TimingReceiver } from '../support/receiver';
import { BenchTenant, BenchWorld } from '../support/world';
import { changePerson, outboxDrained, provisionFincorePersons, subscribeWebhooks } from './events';

/** One point's load: what it sends, and which webhook it expects on which receiver path. */
export interface PointLoad {
  /** Sends every event; resolves once all are committed. `ok`: how many were accepted. */
  send(): Promise<{ sent: number; ok: number }>;
  /** Per receiver path, the persons whose PERSON_UPDATED webhook must arrive there. */
  expected: Array<{ path: string; personIds: string[] }>;
}

export interface PointRun {
  sent: number;
  ok: number;
  expected: number;
  delivered: number;
  /** Webhooks delivered per second, first event sent to last webhook arrived. */
  deliveredPerSecond: number;
  cpu: CpuSpent;
  /** CPU of the fincore processes and the database's backends, per delivered webhook. */
  cpuPerWebhookMs: number;
  /** Every event was accepted, every webhook arrived, and the records settled, within the time limit. */
  complete: boolean;
}

const arrivedOf = (receiver: TimingReceiver, expected: PointLoad['expected']) =>
  expected.map(({ path, personIds }) => {
    const onPath = receiver.on(path);
    return personIds.map((id) => onPath.get(id)).filter((t) => t !== undefined);
  });

/** Nothing left to record: every event processed, no delivery pending. */
async function settled(world: BenchWorld, deadline: number): Promise<boolean> {
  if (!(await outboxDrained(world, Math.max(0, deadline - Date.now())))) return false;
  while (Date.now() < deadline) {
    const [{ n }] = await world.query<{ n: string }>(
      `SELECT count(*) AS n FROM notifications.webhook_deliveries WHERE status = 'PENDING'`,
    );
    if (Number(n) === 0) return true;
    await sleep(100);
  }
  return false;
}

/**
 * Runs one curve point, its CPU measured throughout: the load, a wait for every expected webhook,
 * then for the records behind them (delivery rows are written after the receiver answered).
 */
export async function measurePoint(
  load: PointLoad,
  on: { receiver: TimingReceiver; meter: CpuMeter; world: BenchWorld; timeoutMs: number },
): Promise<PointRun> {
  const expected = load.expected.reduce((sum, e) => sum + e.personIds.length, 0);
  const { result, cpu } = await on.meter.measure(async () => {
    const started = performance.now();
    const { sent, ok } = await load.send();
    const deadline = Date.now() + on.timeoutMs;
    const count = () => arrivedOf(on.receiver, load.expected).reduce((sum, a) => sum + a.length, 0);
    while (count() < expected && Date.now() < deadline) await sleep(50);
    const arrivals = arrivedOf(on.receiver, load.expected).flat();
    return { started, sent, ok, arrivals, calm: await settled(on.world, deadline) };
  });
  const { started, sent, ok, arrivals, calm } = result;
  const last = Math.max(started, ...arrivals);
  return {
    sent,
    ok,
    expected,
    delivered: arrivals.length,
    deliveredPerSecond: arrivals.length / ((last - started) / 1000),
    cpu,
    cpuPerWebhookMs: cpu.total / arrivals.length,
    complete: ok === sent && arrivals.length === expected && calm,
  };
}

/** One person change through the credentials API per (tenant, person), `connections` at a time. */
export function apiChanges(
  credentialsApi: string,
  changes: Array<{ tenant: BenchTenant; personId: string }>,
  connections: number,
  tag: string,
): PointLoad['send'] {
  return async () => {
    let next = 0;
    let ok = 0;
    const client = async () => {
      while (next < changes.length) {
        const { tenant, personId } = changes[next++];
        if ((await changePerson({ url: credentialsApi, token: tenant.token, tag }, personId)) === '200') ok++;
      }
    };
    await Promise.all(Array.from({ length: connections }, client));
    return { sent: changes.length, ok };
  };
}

/** PERSON_UPDATED data whose webhook body (envelope included) is `bytes` long, the last name padded. */
function paddedChange(tenantCode: string, personId: string, bytes: number): EventData<'PERSON_UPDATED'> {
  const data = { personId, changedFields: ['lastName'], person: { personId, lastName: '' } };
  const envelope = {
    id: randomUUID(),
    type: 'PERSON_UPDATED',
    tenantCode,
    occurredAt: new Date().toISOString(),
    correlationId: null,
    subject: subjectOf('PERSON_UPDATED', data),
    sequence: null,
    data,
  };
  data.person.lastName = 'x'.repeat(Math.max(1, bytes - Buffer.byteLength(JSON.stringify(envelope))));
  return data;
}

/**
 * PERSON_UPDATED events of about `bytes` each, emitted one per transaction, `connections` at a
 * time, as the credentials API emits a person change (see BenchEmitter). No API request can carry
 * such an event: a person's names are at most 100 characters; the event schema bounds no length.
 */
export function emittedChanges(
  emitter: BenchEmitter,
  tenant: BenchTenant,
  personIds: string[],
  bytes: number,
  connections: number,
): PointLoad['send'] {
  return async () => {
    let next = 0;
    const client = async () => {
      while (next < personIds.length)
        await emitter.emitPersonUpdated(tenant.code, paddedChange(tenant.code, personIds[next++], bytes));
    };
    await Promise.all(Array.from({ length: connections }, client));
    return { sent: personIds.length, ok: personIds.length };
  };
}

/**
 * `count` tenants, each with PERSON_UPDATED webhooks on, one endpoint (`urlOf(index)`) and the
 * persons `personsOf(index)`, set up `batch` tenants at a time through the APIs.
 */
export async function provisionTenants(
  world: BenchWorld,
  apis: { credentials: string; notifications: string },
  count: number,
  urlOf: (index: number) => string,
  personsOf: (index: number) => string[],
  batch = 20,
): Promise<BenchTenant[]> {
  const tenants = await inBatches(
    Array.from({ length: count }, (_, i) => i),
    batch,
    () => world.createTenant(),
  );
  await inBatches(tenants, batch, async (tenant, i) => {
    await subscribeWebhooks(apis.notifications, tenant, urlOf(i));
    await provisionFincorePersons(apis.credentials, tenant, personsOf(i));
  });
  return tenants;
}
