import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { createWebhookEndpoint, listDeliveries, webhookTenant } from './support/builders/webhooks';
import { countRows } from './support/db';
import { eventually } from './support/http';
import { commitEvent } from './support/outbox';
import { freePort, RunningApp, SpawnedApp, TestStack } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';
import { OutboxEventEntity } from '@fincore/events';

interface LogLine {
  level: number;
  time: number;
  msg: string;
}

const PINO_INFO = 30;
const PINO_WARN = 40;
const FAILED = 'Webhook attempt failed: ';

/** What the notifier logs of failed attempts, read from the real process at info level. */
describe('notifier: a log line per failed attempt', () => {
  let stack: TestStack, db: DataSource, api: RunningApp, notifier: SpawnedApp, receiver: WebhookReceiver;
  beforeAll(async () => {
    stack = await TestStack.create();
    db = await stack.db([OutboxEventEntity]);
    api = await stack.startApp(NotificationApiApp);
    notifier = await stack.spawnApp('notifier', { LOG_LEVEL: 'info' });
    receiver = (await WebhookReceiver.start()).setDefault({ status: 500 });
  });
  afterAll(async () => {
    await receiver.stop();
    await stack.close();
  });

  const failedAttemptLines = (): LogLine[] =>
    notifier
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine)
      .filter((l) => l.msg.startsWith(FAILED));

  it('names delivery, endpoint, answer and next attempt, once per attempt, and never the URL or the payload', async () => {
    // A subscriber's token in the path and the query, and personal data in the event.
    const pathToken = `path-${randomBytes(8).toString('hex')}`;
    const queryToken = `query-${randomBytes(8).toString('hex')}`;
    const f = await webhookTenant(stack, api.api, `${receiver.url}/${pathToken}`);
    const unreachable = await createWebhookEndpoint(api.api, f.token, {
      url: `http://127.0.0.1:${await freePort()}/hook?token=${queryToken}`,
    });
    const personId = randomBytes(8).toString('hex');
    const person = {
      personId,
      firstName: 'Adelheid',
      lastName: 'Zwetschgenbaum',
      email: 'adelheid@example.org',
    };
    await commitEvent(db, {
      type: 'PERSON_UPDATED',
      tenantCode: f.tenant.code,
      data: { personId, changedFields: ['lastName'], person },
    });

    const deliveries = await eventually(async () => {
      const all = await listDeliveries(api.api, f.token);
      return all.length === 2 && all.every((d) => d.status === 'FAILED') && all;
    });
    for (const d of deliveries)
      expect(await countRows(db, 'notifications.webhook_delivery_attempts', { delivery_id: d.id })).toBe(4);
    // The last attempt's line is written after its record commits: polled, not assumed.
    const lines = await eventually(() => failedAttemptLines().length === 8 && failedAttemptLines());

    for (const [endpointId, answer] of [
      [f.endpoint.id, 'HTTP 500'],
      [unreachable.id, 'error: connect ECONNREFUSED'],
    ]) {
      const own = lines.filter((l) => l.msg.includes(`endpoint ${endpointId},`));
      expect(own).toHaveLength(4);
      const retries = own.slice(0, 3);
      for (const line of retries) {
        expect(line.level).toBe(PINO_INFO);
        expect(line.msg).toContain(`, ${answer}`);
        const nextAt = Date.parse(/next attempt at (\S+)$/.exec(line.msg)![1]);
        // Due again within the test schedule (0.2 s, 0.4 s, 0.8 s, ±20 %) of the line.
        expect(nextAt - line.time).toBeGreaterThan(0);
        expect(nextAt - line.time).toBeLessThan(1500);
      }
      expect(own[3].level).toBe(PINO_WARN);
      expect(own[3].msg).toMatch(/; no next attempt: the retry schedule is exhausted$/);
    }
    for (const d of deliveries)
      expect(lines.filter((l) => l.msg.includes(`delivery ${d.id},`))).toHaveLength(4);

    const output = notifier.output();
    for (const never of [
      pathToken,
      queryToken,
      receiver.url,
      person.firstName,
      person.lastName,
      person.email,
    ])
      expect(output).not.toContain(never);
  });
});
