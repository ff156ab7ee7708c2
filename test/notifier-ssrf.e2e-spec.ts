import { lookup as systemLookup } from 'node:dns';
import { Global, Module } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { OutboxEventEntity } from '@fincore/events';
import type { HostLookup } from '@fincore/webhooks';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import { HOST_LOOKUP } from '../apps/notifier/src/delivery/webhook-sender';
import { NotifierModule } from '../apps/notifier/src/notifier.module';
import { getDelivery, listDeliveries, webhookTenant } from './support/builders/webhooks';
import { eventually } from './support/http';
import { commitPersonUpdated } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';

/** A name no real resolver knows; the notifier's resolver here says it is the loopback address. */
const LOOPBACK_NAME = 'receiver.fincore.test';
const asked: string[] = [];
const testLookup: HostLookup = (hostname, options, callback) => {
  asked.push(hostname);
  if (hostname === LOOPBACK_NAME) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  systemLookup(hostname, options, callback);
};

@Global()
@Module({ providers: [{ provide: HOST_LOOKUP, useValue: testLookup }], exports: [HOST_LOOKUP] })
class TestResolverModule {}

@Module({ imports: [TestResolverModule, NotifierModule] })
class NotifierWithTestResolverModule {}

/**
 * The notifier checks the destination again at every attempt, because an address accepted at
 * registration can resolve elsewhere later. Here the API accepted a loopback receiver (private
 * networks allowed there), the notifier does not allow them: nothing may be sent.
 */
describe('notifier refuses unsafe destinations at delivery time', () => {
  let stack: TestStack, db: DataSource, api: RunningApp;
  beforeAll(async () => {
    stack = await TestStack.create({ WEBHOOK_RETRY_SCHEDULE: '0.1' });
    db = await stack.db([OutboxEventEntity]);
    api = await stack.startApp(NotificationApiApp);
    await stack.startApp(
      { ...NotifierApp, module: NotifierWithTestResolverModule },
      { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' },
    );
  });
  afterAll(() => stack.close());

  const failedDelivery = (token: string) =>
    eventually(
      async () => {
        const [delivery] = await listDeliveries(api.api, token);
        return delivery?.status === 'FAILED' && getDelivery(api.api, token, delivery.id);
      },
      { what: 'the delivery to fail' },
    );

  it('sends nothing to a loopback address and records the refusal on the delivery', async () => {
    const receiver = await WebhookReceiver.start();
    const { token, tenant } = await webhookTenant(stack, api.api, receiver.url);

    await commitPersonUpdated(db, tenant.code);

    const delivery = await failedDelivery(token);
    expect(delivery.lastError).toMatch(/destination refused/);
    expect(delivery.attempts.length).toBeGreaterThanOrEqual(1);
    expect(delivery.attempts.every((a) => a.statusCode === null)).toBe(true);
    expect(receiver.received).toHaveLength(0);
    await receiver.stop();
  });

  it('refuses a host name when the address it resolves to at connect time is a loopback address', async () => {
    const receiver = await WebhookReceiver.start();
    const { token, tenant, endpoint } = await webhookTenant(stack, api.api, receiver.url);
    // The name was registered while it resolved elsewhere; now it resolves to 127.0.0.1 (DNS
    // rebinding). The API's resolver knows nothing of the name, so the row gets it directly.
    const { port } = new URL(receiver.url);
    await db.query(`UPDATE notifications.webhook_endpoints SET url = $2 WHERE id = $1`, [
      endpoint.id,
      `http://${LOOPBACK_NAME}:${port}/${tenant.code}`,
    ]);

    await commitPersonUpdated(db, tenant.code);

    const delivery = await failedDelivery(token);
    // Refused on the resolved address, not on the name: the refusal names both.
    expect(delivery.lastError).toMatch(
      new RegExp(
        `destination refused: ${LOOPBACK_NAME.replaceAll('.', '\\.')} \\(127\\.0\\.0\\.1\\) is in a loopback`,
      ),
    );
    expect(delivery.attempts.every((a) => a.statusCode === null && a.outcome === 'FAILED')).toBe(true);
    expect(asked).toContain(LOOPBACK_NAME);
    expect(receiver.received).toHaveLength(0);
    await receiver.stop();
  });
});
