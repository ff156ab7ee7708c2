import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  apiChanges,
  measurePoint,
  emittedChanges,
  PointLoad,
  PointRun,
  provisionTenants,
} from '../drivers/cost-curves';
import { provisionFincorePersons, subscribeWebhooks, useEndpoints } from '../drivers/events';
import { CpuMeter } from '../support/cpu-meter';
import { BenchEmitter } from '../support/emitter';
import { TimingReceiver } from '../support/receiver';
import { Metric } from '../support/report';
import { BenchTenant } from '../support/world';
import { Curve, CurvePoint, curveRows, curvesChart } from './cost-curves-report';
import { BenchContext, log, reason, Scenario } from './scenario';

/** Endpoints per event of the fan-out curve; the last is above the default limit, raised for this stage. */
const ENDPOINTS = [1, 10, 100];
/** Payload sizes of the payload curve, in KB (64 KB: the APIs' default body limit). */
const PAYLOAD_KB = [1, 16, 64];
/** Changes that warm the fresh processes up before the first point. */
const WARM_UP = 50;

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/** What every point of the stage uses: the processes, the receiver, the stage's own tenant. */
interface Stage {
  ctx: BenchContext;
  apis: { credentials: string; notifications: string };
  receiver: TimingReceiver;
  meter: CpuMeter;
  tenant: BenchTenant;
  ids: string[];
}

const hook = (stage: Stage, path: string) => `${stage.receiver.url}${path}`;

async function point(stage: Stage, x: number, load: () => Promise<PointLoad>): Promise<CurvePoint> {
  const { ctx, receiver, meter } = stage;
  try {
    const on = { receiver, meter, world: ctx.world, timeoutMs: ctx.settings.eventTimeoutSeconds * 1000 };
    const pointLoad = await load();
    // As autovacuum would after the previous point's writes (tens of thousands of rows at 100 endpoints).
    await ctx.world.analyze();
    const run: PointRun = await measurePoint(pointLoad, on);
    log(
      `cost-curves: ${x}: ${run.delivered}/${run.expected} webhooks, ${run.deliveredPerSecond.toFixed(0)}/s`,
    );
    return { x, run };
  } catch (error) {
    log(`cost-curves: point ${x} not measured: ${reason(error)}`);
    return { x, whyNot: reason(error) };
  }
}

/** The same person changes through the API, each delivered to 1, 10, 100 endpoints of the tenant. */
async function endpointsCurve(stage: Stage): Promise<Curve> {
  const points: CurvePoint[] = [];
  for (const count of ENDPOINTS) {
    log(`cost-curves: ${stage.ids.length} changes to ${count} endpoint(s) each`);
    points.push(
      await point(stage, count, async () => {
        const paths = range(count).map((j) => `/cost-ep${count}-${j}`);
        await useEndpoints(
          stage.apis.notifications,
          stage.tenant,
          paths.map((p) => hook(stage, p)),
        );
        const changes = stage.ids.map((personId) => ({ tenant: stage.tenant, personId }));
        return {
          send: apiChanges(
            stage.apis.credentials,
            changes,
            stage.ctx.settings.eventConnections,
            `ep${count} `,
          ),
          expected: paths.map((path) => ({ path, personIds: stage.ids })),
        };
      }),
    );
  }
  return { name: 'endpoints', points };
}

/** Person changes of 1, 16, 64 KB emitted as the API does (see emittedChanges), one endpoint. */
async function payloadCurve(stage: Stage): Promise<Curve> {
  const { world, systems, settings } = stage.ctx;
  const emitter = await BenchEmitter.open(world, systems.fincoreEnv);
  const points: CurvePoint[] = [];
  try {
    for (const kb of PAYLOAD_KB) {
      log(`cost-curves: ${stage.ids.length} changes of ${kb} KB`);
      points.push(
        await point(stage, kb, async () => {
          const path = `/cost-kb${kb}`;
          await useEndpoints(stage.apis.notifications, stage.tenant, [hook(stage, path)]);
          const personIds = stage.ids.map((id) => `${id}-kb${kb}`);
          return {
            send: emittedChanges(emitter, stage.tenant, personIds, kb * 1024, settings.eventConnections),
            expected: [{ path, personIds }],
          };
        }),
      );
    }
  } finally {
    await emitter.close();
  }
  return { name: 'payload', points };
}

/**
 * The same number of person changes spread evenly over 1, 100, 1,000 tenants (the first T of one
 * set of tenants, each with one endpoint), interleaved so every tenant has events under way.
 */
async function tenantsCurve(stage: Stage): Promise<Curve> {
  const { settings, world } = stage.ctx;
  const counts = settings.costTenants;
  const most = counts[counts.length - 1];
  const step = counts.reduce((a, b) => (a * b) / gcd(a, b));
  const total = Math.ceil(Math.max(settings.costEvents, most) / step) * step;
  const personsOf = (t: number) => range(total / t).map((k) => `t${t}-${k}`);
  const started = Date.now();
  log(`cost-curves: setting up ${most} tenants for ${total} changes per point`);
  const tenants = await provisionTenants(
    world,
    stage.apis,
    most,
    (i) => hook(stage, `/cost-tenant-${i}`),
    (i) => counts.filter((t) => i < t).flatMap(personsOf),
  );
  await world.analyze();
  log(`cost-curves: ${most} tenants set up in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const points: CurvePoint[] = [];
  for (const count of counts) {
    const ids = personsOf(count);
    const changes = ids.flatMap((personId) =>
      tenants.slice(0, count).map((tenant) => ({ tenant, personId })),
    );
    points.push(
      await point(stage, count, async () => ({
        send: apiChanges(stage.apis.credentials, changes, settings.eventConnections, `ten${count} `),
        expected: range(count).map((i) => ({ path: `/cost-tenant-${i}`, personIds: ids })),
      })),
    );
  }
  return { name: 'tenants', points };
}

const CURVES: Record<Curve['name'], (stage: Stage) => Promise<Curve>> = {
  endpoints: endpointsCurve,
  payload: payloadCurve,
  tenants: tenantsCurve,
};

async function runCurves(ctx: BenchContext, receiver: TimingReceiver): Promise<Curve[]> {
  const { settings, systems, world } = ctx;
  log('cost-curves: starting credentials-api, notification-api (endpoint limit 100), notifier');
  const apps = await Promise.all([
    systems.startFincore('credentials-api'),
    systems.startFincore('notification-api', {
      WEBHOOK_MAX_ENDPOINTS_PER_TENANT: String(Math.max(...ENDPOINTS)),
    }),
    systems.startFincore('notifier'),
  ]);
  try {
    const [credentials, notifications] = apps;
    const stage: Stage = {
      ctx,
      apis: { credentials: credentials.url, notifications: notifications.url },
      receiver,
      meter: new CpuMeter(world, apps),
      // A tenant of its own: the other stages' persons and endpoints stay out of these curves.
      tenant: await world.createTenant(),
      ids: range(settings.costEvents).map((i) => `cost-${i}`),
    };
    const warm = range(WARM_UP).map((i) => `cost-warm-${i}`);
    await provisionFincorePersons(credentials.url, stage.tenant, [...warm, ...stage.ids]);
    await subscribeWebhooks(notifications.url, stage.tenant, hook(stage, '/cost-warm'));
    await world.analyze();
    const warmUp = await point(stage, 0, async () => ({
      send: apiChanges(
        credentials.url,
        warm.map((personId) => ({ tenant: stage.tenant, personId })),
        10,
        'warm ',
      ),
      expected: [{ path: '/cost-warm', personIds: warm }],
    }));
    if (!warmUp.run?.complete)
      throw new Error(`the warm-up did not complete: ${warmUp.whyNot ?? 'webhooks missing'}`);
    const curves: Curve[] = [];
    for (const [name, run] of Object.entries(CURVES))
      if (settings.costCurves.includes(name)) curves.push(await run(stage));
    return curves;
  } finally {
    for (const app of apps) await systems.stop(app);
  }
}

/**
 * Cost curves of fincore alone: delivered webhooks/s and CPU per webhook as the fan-out, the
 * payload and the number of tenants grow. BENCH_CHART=<file.svg> also draws them.
 */
export const costCurves: Scenario = {
  name: 'cost-curves',
  async run(ctx): Promise<Metric[]> {
    const receiver = await TimingReceiver.start();
    let curves: Curve[] = [];
    let whyNot: string | undefined;
    try {
      curves = await runCurves(ctx, receiver);
    } catch (error) {
      whyNot = reason(error);
      log(`cost-curves: not measured: ${whyNot}`);
    } finally {
      await receiver.close();
    }
    if (ctx.settings.chart && curves.length) {
      const file = resolve(ctx.settings.chart);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, curvesChart(curves));
      log(`cost-curves: chart written to ${file}`);
    }
    return whyNot ? [notMeasuredRow(whyNot)] : curveRows(ctx.settings, curves);
  },
};

const notMeasuredRow = (whyNot: string): Metric => ({
  scenario: 'cost-curves',
  name: 'cost curves: webhooks delivered/s and CPU per webhook',
  unit: '/s',
  higherIsBetter: true,
  fincore: null,
  baseline: null,
  notMeasured: whyNot,
});
