import type { Queue } from 'bullmq';
import { OutboxRepository } from '@fincore/events';
import { WebhookDeliveryAdminRepository } from '@fincore/notifications';
import { MetricsService } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { NotifierMetrics } from './notifier-metrics';

describe('NotifierMetrics', () => {
  let outbox: jest.Mocked<OutboxRepository>;
  let deliveries: jest.Mocked<WebhookDeliveryAdminRepository>;
  let metrics: MetricsService;

  beforeEach(() => {
    outbox = newDouble<OutboxRepository>();
    deliveries = newDouble<WebhookDeliveryAdminRepository>();
    outbox.oldestUnprocessedAgeSeconds.mockResolvedValue(0);
    deliveries.oldestOverdueAgeSeconds.mockResolvedValue(0);
    metrics = new MetricsService();
    const queue = (name: string) =>
      ({ name, getJobCounts: jest.fn().mockResolvedValue({ waiting: 2 }) }) as unknown as Queue;
    new NotifierMetrics(metrics, queue('domain-events'), queue('webhook-deliveries'), outbox, deliveries);
  });

  const backlogLines = async () =>
    (await metrics.registry.metrics()).split('\n').filter((l) => l.startsWith('queue_backlog_age_seconds'));

  it('starts the series of every attempt outcome, disable reason and event type at 0', async () => {
    const text = await metrics.registry.metrics();
    expect(text).toContain('webhook_deliveries_created_total{type="PERSON_UPDATED"} 0');
    expect(text).toContain('webhook_delivery_attempts_total{outcome="endpoint_gone"} 0');
    expect(text).toContain('webhook_endpoints_disabled_total{reason="gone"} 0');
    expect(text).toContain('webhook_endpoints_disabled_total{reason="failing"} 0');
  });

  describe('queue_backlog_age_seconds', () => {
    it('reads the age of each queue’s oldest waiting work from PostgreSQL at scrape time', async () => {
      outbox.oldestUnprocessedAgeSeconds.mockResolvedValue(12.5);
      deliveries.oldestOverdueAgeSeconds.mockResolvedValue(0);
      expect(await backlogLines()).toEqual([
        'queue_backlog_age_seconds{queue="domain-events"} 12.5',
        'queue_backlog_age_seconds{queue="webhook-deliveries"} 0',
      ]);
      outbox.oldestUnprocessedAgeSeconds.mockResolvedValue(30);
      expect(await backlogLines()).toContain('queue_backlog_age_seconds{queue="domain-events"} 30');
    });

    it('has no sample, rather than a stale one, while PostgreSQL does not answer; the scrape still works', async () => {
      outbox.oldestUnprocessedAgeSeconds.mockResolvedValue(12.5);
      deliveries.oldestOverdueAgeSeconds.mockResolvedValue(3);
      await backlogLines();
      deliveries.oldestOverdueAgeSeconds.mockRejectedValue(new Error('connect ECONNREFUSED'));
      expect(await backlogLines()).toEqual([]);
      expect(await metrics.registry.metrics()).toContain(
        'queue_jobs{queue="domain-events",state="waiting"} 2',
      );
    });
  });
});
