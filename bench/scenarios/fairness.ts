import { api } from '../support/load';
import { TimingReceiver } from '../support/receiver';
import { Metric } from '../support/report';
import {
  driveEvents,
  EventRun,
  outboxDrained,
  provisionFincorePersons,
  WARM_UP_CHANGES,
} from '../drivers/events';
import { backlogOf, commitBacklog, deliveriesPiledUp, endBacklog } from '../drivers/fairness';
import { BenchContext, log, reason, Scenario } from './scenario';

/** The flooding tenant's subscriber answers this slowly, so its backlog lasts while the other sends. */
const FLOODED_RECEIVER_DELAY_MS = 1000;

/**
 * A quiet tenant sends changes one at a time, first alone, then while another tenant has a backlog
 * of thousands of deliveries to a slow subscriber: API response -> webhook of the quiet tenant.
 */
export const fairness: Scenario = { name: 'fairness', run };

async function run(ctx: BenchContext): Promise<Metric[]> {
  const { settings, systems, world } = ctx;
  const scenario = 'fairness';
  const receiver = await TimingReceiver.start({ '/flooded': FLOODED_RECEIVER_DELAY_MS });
  const timeoutMs = settings.eventTimeoutSeconds * 1000;
  const quietIds = Array.from({ length: 2 * settings.fairnessEvents }, (_, i) => `bench-quiet-${i}`);
  // Fresh processes start cold (JIT, pool connections, prepared statements): warmed up first with
  // changes of persons no run measures, so that "alone" measures the quiet tenant, not a cold start.
  const warmUpIds = Array.from({ length: WARM_UP_CHANGES }, (_, i) => `bench-quiet-warm-${i}`);
  let alone: EventRun | undefined;
  let flooded: EventRun | undefined;
  let whyNot: string | undefined;
  const notes: string[] = [];
  try {
    log('fairness: starting credentials-api, notification-api, notifier');
    const [credentials, notifications, notifier] = await Promise.all([
      systems.startFincore('credentials-api'),
      systems.startFincore('notification-api'),
      systems.startFincore('notifier'),
    ]);
    const [quiet, flooding] = [await world.createTenant(), await world.createTenant()];
    await provisionFincorePersons(credentials.url, quiet, [...warmUpIds, ...quietIds]);
    await world.analyze();
    for (const [tenant, path] of [
      [quiet, '/quiet'],
      [flooding, '/flooded'],
    ] as const) {
      const h = { 'x-auth-token': tenant.token };
      await api(
        notifications.url,
        'PUT',
        '/api/v1/notification-config/enable',
        { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' },
        h,
      );
      await api(notifications.url, 'POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}${path}` }, h);
    }
    if (!(await outboxDrained(world, 30_000)))
      throw new Error('the notifier did not handle the set-up events within 30 s');
    // One request at a time unless told otherwise; a tag keeps the warm-up's names apart.
    const drive = (ids: string[], connections = 1, tag?: string) =>
      driveEvents({
        url: credentials.url,
        token: quiet.token,
        ids,
        connections,
        receiver,
        receiverPaths: ['/quiet'],
        timeoutMs,
        tag,
      });
    log(`fairness: warm-up (${warmUpIds.length} changes of the quiet tenant)`);
    await drive(warmUpIds, settings.eventConnections, 'warm ');
    log(`fairness: ${settings.fairnessEvents} changes of the quiet tenant, one at a time, alone`);
    alone = await drive(quietIds.slice(0, settings.fairnessEvents));
    log(`fairness: the other tenant commits ${settings.fairnessBacklog} events at once`);
    await commitBacklog(world, flooding.code, settings.fairnessBacklog);
    await deliveriesPiledUp(world, flooding, Math.ceil(settings.fairnessBacklog / 10), timeoutMs);
    const before = await backlogOf(world, flooding);
    log(`fairness: ${settings.fairnessEvents} changes of the quiet tenant behind ${JSON.stringify(before)}`);
    flooded = await drive(quietIds.slice(settings.fairnessEvents));
    const after = await backlogOf(world, flooding);
    notes.push(
      `the flooding tenant's backlog when the quiet tenant started: ${before.events} events not fanned out, ` +
        `${before.deliveries} deliveries pending; when it ended: ${after.events} and ${after.deliveries} ` +
        `(its subscriber answers in ${FLOODED_RECEIVER_DELAY_MS} ms; WEBHOOK_CONCURRENCY 20, one notifier)`,
    );
    if (!alone.complete || !flooded.complete)
      notes.push('INCOMPLETE: some webhooks of the quiet tenant did not arrive');
    for (const p of [credentials, notifications, notifier]) await systems.stop(p);
    await endBacklog(world, flooding);
  } catch (error) {
    whyNot = reason(error);
    log(`fairness: not measured: ${whyNot}`);
  }
  await receiver.close();
  const row = (name: string, value?: number): Metric => ({
    scenario,
    name,
    unit: 'ms',
    higherIsBetter: false,
    fincore: value ?? null,
    baseline: null,
    notMeasured: value === undefined ? (whyNot ?? 'incomplete') : undefined,
  });
  return [
    { ...row('quiet tenant, alone: API response -> webhook p50', alone?.p50Ms), notes },
    row('quiet tenant, alone: API response -> webhook p99', alone?.p99Ms),
    row("quiet tenant, behind another's backlog: p50", flooded?.p50Ms),
    row("quiet tenant, behind another's backlog: p99", flooded?.p99Ms),
  ];
}
