import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppDefinition } from '@fincore/platform';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import { listDeliveries, webhookTenant } from './support/builders/webhooks';
import { eventually } from './support/http';
import { commitPersonUpdated } from './support/outbox';
import { OwnedPrometheus, PROMETHEUS_DIR } from './support/prometheus';
import { RunningApp, TestStack } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';
import { OutboxEventEntity } from '@fincore/events';

const APPS: Array<[string, AppDefinition]> = [
  ['credentials-api', CredentialsApiApp],
  ['card-api', CardApiApp],
  ['notification-api', NotificationApiApp],
  ['notifier', NotifierApp],
];
const DASHBOARD = JSON.parse(
  readFileSync(join(__dirname, '..', 'deploy', 'grafana', 'fincore.json'), 'utf8'),
);
const ALERTS = readFileSync(join(PROMETHEUS_DIR, 'alerts.yml'), 'utf8');

const dashboardQueries: string[] = DASHBOARD.panels.flatMap((p: { targets?: Array<{ expr: string }> }) =>
  (p.targets ?? []).map((t) => t.expr),
);
const alertQueries = [...ALERTS.matchAll(/expr: (?:\|\n((?:\s{10}.*\n)+)|(.*)\n)/g)].map((m) =>
  (m[1] ?? m[2]).trim(),
);

/** The metric names a query reads: names with an underscore before a selector, a range or a closing parenthesis. */
const metricsIn = (query: string) =>
  [...query.matchAll(/\b([a-z][a-z0-9]*_[a-z0-9_]+)\s*(?=[{[)])/g)].map((m) => m[1]);
/** `http_request_duration_seconds_bucket` belongs to the family `http_request_duration_seconds`. */
const familyOf = (name: string, families: Set<string>) =>
  families.has(name) ? name : name.replace(/_(bucket|count|sum)$/, '');
/** prom-client's process and Node.js defaults are no family of fincore's. */
const isFincoreFamily = (name: string) => !/^(process|nodejs)_/.test(name);

/**
 * Debian's Prometheus scraping the four apps of a running stack, with fincore's alert rules loaded:
 * every metric family fincore exports has data there, and every query of the alerts and of the
 * dashboard runs and names only metrics that exist.
 */
describe('Prometheus scraping a running stack', () => {
  let stack: TestStack | undefined;
  let receiver: WebhookReceiver | undefined;
  let prometheus: OwnedPrometheus | undefined;
  const apps: Record<string, RunningApp> = {};

  beforeAll(async () => {
    stack = await TestStack.create();
    for (const [job, definition] of APPS) apps[job] = await stack.startApp(definition);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await prometheus?.close();
    await receiver?.stop();
    await stack?.close();
  });

  it('finds every fincore metric family with data, and runs every alert and dashboard query', async () => {
    // A webhook delivered: the delivery metrics get their first samples.
    const notifications = apps['notification-api'].api;
    const tenant = await webhookTenant(stack!, notifications, receiver!.url);
    await commitPersonUpdated(await stack!.db([OutboxEventEntity]), tenant.tenant.code);
    await eventually(
      async () => (await listDeliveries(notifications, tenant.token))[0]?.status === 'SUCCEEDED',
    );

    const exported = new Map<string, string[]>();
    for (const [job] of APPS) {
      const text = await (await fetch(`${apps[job].url}/metrics`)).text();
      for (const [, family] of text.matchAll(/^# TYPE (\S+) \S+$/gm))
        if (isFincoreFamily(family)) exported.set(family, [...(exported.get(family) ?? []), job]);
    }
    const families = new Set(exported.keys());
    // What the alerts and the dashboard read is exported by some process.
    const named = [...alertQueries, ...dashboardQueries].flatMap(metricsIn).map((n) => familyOf(n, families));
    expect([...new Set(named)].filter((n) => !families.has(n))).toEqual([]);
    expect(alertQueries).toHaveLength(11);

    prometheus = await OwnedPrometheus.start(
      APPS.map(([job]) => ({ job, address: new URL(apps[job].url).host })),
      [join(PROMETHEUS_DIR, 'alerts.yml')],
    );
    const withoutData = async () => {
      const missing: string[] = [];
      for (const [family, jobs] of exported)
        for (const job of jobs) {
          const series = await prometheus!.query(
            `{__name__=~"${family}(_bucket|_count|_sum)?", job="${job}"}`,
          );
          if (!series.length) missing.push(`${job} ${family}`);
        }
      return missing;
    };
    // What is still missing when the wait gives up, so a failure names the families.
    const missing = await eventually(
      async () => {
        const left = await withoutData();
        return left.length === 0 && left;
      },
      { timeoutMs: 20_000, what: 'every family scraped' },
    ).catch(() => withoutData());
    expect(missing).toEqual([]);
    expect((await prometheus.query('up == 1')).map((s) => s.metric.job).sort()).toEqual(
      APPS.map(([job]) => job).sort(),
    );

    // The rules loaded, and each was evaluated without error against the scraped series.
    const rules = await eventually(async () => {
      const groups = await prometheus!.get<{
        groups: Array<{ rules: Array<{ name: string; health: string }> }>;
      }>('/api/v1/rules');
      const all = groups.groups.flatMap((g) => g.rules);
      return all.length === 11 && all.every((r) => r.health !== 'unknown') && all;
    });
    expect(rules.filter((r) => r.health !== 'ok')).toEqual([]);
    for (const query of dashboardQueries)
      await expect(prometheus.query(query)).resolves.toEqual(expect.any(Array));
  });
});
