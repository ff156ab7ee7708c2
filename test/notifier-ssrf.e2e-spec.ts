import { OutboxEventEntity } from '@fincore/events';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import { webhookTenant } from './support/builders/webhooks';
import { eventually } from './support/http';
import { commitPersonUpdated } from './support/outbox';
import { TestStack } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * The notifier checks the destination again at every attempt, because an address accepted at
 * registration can resolve elsewhere later. Here the API accepted a loopback receiver (private
 * networks allowed there), the notifier does not allow them: nothing may be sent.
 */
describe('notifier refuses unsafe destinations at delivery time', () => {
  let stack: TestStack;
  afterAll(() => stack.close());

  it('sends nothing to a loopback address and records the refusal on the delivery', async () => {
    stack = await TestStack.create({ WEBHOOK_RETRY_SCHEDULE: '0.1' });
    await stack.db([OutboxEventEntity]);
    const api = await stack.startApp(NotificationApiApp);
    await stack.startApp(NotifierApp, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
    const receiver = await WebhookReceiver.start();
    const { token, tenant } = await webhookTenant(stack, api.api, receiver.url);

    await commitPersonUpdated(await stack.db(), tenant.code);

    const delivery = await eventually(
      async () => {
        const items = (await api.api.get('/api/v1/webhook-deliveries', { token })).body.items;
        return items[0]?.status === 'FAILED' ? items[0] : undefined;
      },
      { what: 'the delivery to fail' },
    );
    expect(delivery.lastError).toMatch(/destination refused/);
    const detail = (await api.api.get(`/api/v1/webhook-deliveries/${delivery.id}`, { token })).body;
    expect(detail.attempts.length).toBeGreaterThanOrEqual(1);
    expect(detail.attempts.every((a: { statusCode: number | null }) => a.statusCode === null)).toBe(true);
    expect(receiver.received).toHaveLength(0);
    await receiver.stop();
  });
});
