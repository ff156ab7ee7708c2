import { api } from '../support/load';
import { BenchProcess } from '../support/processes';
import { TimingReceiver } from '../support/receiver';
import { Metric } from '../support/report';
import { BenchSettings } from '../support/settings';
import { deliveryStages } from '../support/stages';
import {
  driveEvents,
  EventDrive,
  EventRun,
  outboxDrained,
  useEndpoints,
  WARM_UP_CHANGES,
} from '../drivers/events';
import { BenchContext, log, reason, Scenario, Stage } from './scenario';

/** One system during an event-load stage: its API, and the persons the stage's runs may change. */
export interface EventLoadSystem {
  name: 'fincore' | 'baseline';
  ctx: BenchContext;
  /** The events scenario's persons, less those kept for the warm-ups. */
  measurable: string[];
  /** A run of `ids` through this system's API, its webhooks expected on the receiver's `paths`. */
  drive(paths: string[], ids: string[], tag: string): EventDrive;
  /** Makes `paths` the tenant's endpoints, then warms the system up on them (tagged `warm <run> `). */
  prepare(paths: string[], run: string): Promise<void>;
}

/** fincore's run with the stages of its webhooks to `path` since `since` (see deliveryStages); the baseline's as is. */
export async function withStages<R extends EventRun>(
  system: EventLoadSystem,
  path: string,
  since: Date,
  run: R,
): Promise<R> {
  if (system.name !== 'fincore') return run;
  const { world, settings } = system.ctx;
  return { ...run, stages: await deliveryStages(world, settings.redisUrl, path, since) };
}

/**
 * A run over the persons of the events scenario, in each system in turn: `run` drives one system,
 * `rows` reports both. `unavailable` says why it cannot run when the events scenario left too little.
 */
export interface EventLoadScenario<R extends EventRun = EventRun> extends Scenario<EventLoadSystem, R> {
  unavailable(ctx: BenchContext): string | undefined;
  rows(results: { fincore?: R; baseline?: R }, notMeasured: string | undefined, ctx: BenchContext): Metric[];
}

export const NO_PERSONS = 'the events scenario did not run or create its persons';

/** What a run's rows note about it: answers, webhooks matched, and what went wrong. */
export function runNote(settings: BenchSettings, system: string, run: EventRun | undefined): string[] {
  return run
    ? [
        `${system}: ${run.ok}/${run.sent} changes answered 200` +
          (run.ok < run.sent ? ` (answers: ${JSON.stringify(run.statusCodes)})` : '') +
          `, ${run.delivered} webhooks matched` +
          (run.complete ? '' : ` — INCOMPLETE within ${settings.eventTimeoutSeconds} s`) +
          (run.duplicates ? `, ${run.duplicates} duplicate webhooks` : ''),
      ]
    : [];
}

type Measured = { results: Map<string, EventRun>; whyNot?: string };

/**
 * The scenarios that reuse the events scenario's persons, run one after the other on the same
 * processes: fincore's credentials API, notification API and notifier, then the baseline, each
 * run warmed up first with WARM_UP_CHANGES changes on its own endpoints.
 */
export function eventLoad(scenarios: EventLoadScenario<any>[]): Stage {
  return { names: scenarios.map((s) => s.name), run: (ctx, wants) => runStage(ctx, scenarios, wants) };
}

async function runStage(
  ctx: BenchContext,
  scenarios: EventLoadScenario<any>[],
  wants: (name: string) => boolean,
): Promise<Metric[]> {
  const { settings, systems, world, tenant } = ctx;
  const h = { 'x-auth-token': tenant.token };
  const persons = ctx.persons ?? [];
  // The processes of these runs start cold: each run is warmed up first, on its own endpoints, with
  // persons none of the runs measure (their webhooks are told apart by person id).
  const warmUpIds = persons.slice(-Math.min(WARM_UP_CHANGES, Math.floor(persons.length / 2)));
  const measurable = persons.slice(0, persons.length - warmUpIds.length);
  const receiver = await TimingReceiver.start();
  const timeoutMs = settings.eventTimeoutSeconds * 1000;
  const runs = scenarios.filter((s) => wants(s.name) && !s.unavailable(ctx));

  const measure = async (
    name: EventLoadSystem['name'],
    url: string,
    useEndpoints: (paths: string[]) => Promise<void>,
  ): Promise<Measured> => {
    const out: Measured = { results: new Map() };
    const drive = (paths: string[], ids: string[], tag: string): EventDrive => ({
      url,
      token: tenant.token,
      ids,
      receiver,
      receiverPaths: paths,
      timeoutMs,
      tag,
    });
    const system: EventLoadSystem = {
      name,
      ctx,
      measurable,
      drive,
      prepare: async (paths, run) => {
        await useEndpoints(paths);
        await driveEvents({
          ...drive(paths, warmUpIds, `warm ${run} `),
          connections: settings.eventConnections,
        });
      },
    };
    try {
      for (const scenario of runs) out.results.set(scenario.name, await scenario.run(system));
    } catch (error) {
      out.whyNot = reason(error);
      log(`events-serial/rate/fanout: ${name} not measured: ${out.whyNot}`);
    }
    return out;
  };

  let fincore: Measured = { results: new Map() };
  let baseline: Measured = { results: new Map() };
  if (runs.length) {
    try {
      log('events-serial/rate/fanout: starting credentials-api, notification-api, notifier');
      const apps = await Promise.all([
        systems.startFincore('credentials-api'),
        systems.startFincore('notification-api'),
        systems.startFincore('notifier'),
      ]);
      const [credentials, notifications] = apps;
      await api(
        notifications.url,
        'PUT',
        '/api/v1/notification-config/enable',
        { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' },
        h,
      );
      // The tenant's endpoints become exactly these receiver paths.
      fincore = await measure('fincore', credentials.url, async (paths) => {
        await useEndpoints(
          notifications.url,
          tenant,
          paths.map((path) => `${receiver.url}${path}`),
        );
        if (!(await outboxDrained(world, 30_000)))
          throw new Error('the notifier did not handle the earlier events within 30 s');
      });
      for (const p of apps) await systems.stop(p);
    } catch (error) {
      fincore.whyNot ??= reason(error);
      log(`events-serial/rate/fanout: fincore not measured: ${fincore.whyNot}`);
    }
    let worker: BenchProcess | undefined;
    baseline = await measure('baseline', ctx.baselineApi.url, async (paths) => {
      if (worker) await systems.stop(worker);
      worker = await systems.startBaselineWorker(paths.map((path) => `${receiver.url}${path}`));
    });
    if (worker) await systems.stop(worker);
  }
  await receiver.close();

  return scenarios
    .filter((s) => wants(s.name))
    .flatMap((s) =>
      s.rows(
        { fincore: fincore.results.get(s.name), baseline: baseline.results.get(s.name) },
        s.unavailable(ctx) ?? fincore.whyNot,
        ctx,
      ),
    );
}
