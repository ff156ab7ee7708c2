import { Logger } from '@nestjs/common';
import type { WebhookDeliveryRetentionRepository } from '@fincore/notifications';
import { loadConfig, type AppConfig } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { newNotifierMetricsDouble } from '@test/support/fixtures/notifier-metrics';
import { RETENTION_BATCH, RetentionJanitor } from './retention-janitor';

const NOW = new Date('2026-03-31T12:00:00Z');
const DAY_MS = 24 * 3600 * 1000;

describe('RetentionJanitor', () => {
  let deliveries: jest.Mocked<WebhookDeliveryRetentionRepository>;
  let metrics: ReturnType<typeof newNotifierMetricsDouble>;
  let sut: RetentionJanitor;

  beforeEach(() => {
    deliveries = newDouble<WebhookDeliveryRetentionRepository>();
    metrics = newNotifierMetricsDouble();
    const config = { OUTBOX_RETENTION_DAYS: 7, DELIVERY_RETENTION_DAYS: 30, RETENTION_INTERVAL_MS: 600_000 };
    sut = new RetentionJanitor(deliveries, metrics, config as AppConfig);
    jest.spyOn(Logger.prototype, 'log').mockImplementation();
  });
  afterEach(() => jest.restoreAllMocks());

  describe('deleteExpired', () => {
    it('deletes batch after batch until a batch is not full, deliveries before outbox events', async () => {
      const order: string[] = [];
      deliveries.deleteFinishedBefore
        .mockImplementationOnce(
          async () => (order.push('deliveries'), { deliveries: RETENTION_BATCH, attempts: 2500 }),
        )
        .mockImplementationOnce(async () => (order.push('deliveries'), { deliveries: 3, attempts: 4 }));
      deliveries.deleteProcessedEventsBefore
        .mockImplementationOnce(async () => (order.push('events'), RETENTION_BATCH))
        .mockImplementationOnce(async () => (order.push('events'), 0));

      expect(await sut.deleteExpired(NOW)).toEqual({ deliveries: 1003, attempts: 2504, events: 1000 });

      expect(order).toEqual(['deliveries', 'deliveries', 'events', 'events']);
      expect(deliveries.deleteFinishedBefore).toHaveBeenCalledWith(
        new Date(NOW.getTime() - 30 * DAY_MS),
        RETENTION_BATCH,
      );
      expect(deliveries.deleteProcessedEventsBefore).toHaveBeenCalledWith(
        new Date(NOW.getTime() - 7 * DAY_MS),
        RETENTION_BATCH,
      );
    });

    it('takes retention in fractions of a day, so a soak run sees it apply within minutes', async () => {
      const config = loadConfig({ OUTBOX_RETENTION_DAYS: '0.001', DELIVERY_RETENTION_DAYS: '0.0005' });
      sut = new RetentionJanitor(deliveries, metrics, config);
      deliveries.deleteFinishedBefore.mockResolvedValueOnce({ deliveries: 0, attempts: 0 });
      deliveries.deleteProcessedEventsBefore.mockResolvedValueOnce(0);

      await sut.deleteExpired(NOW);

      expect(deliveries.deleteFinishedBefore).toHaveBeenCalledWith(
        new Date(NOW.getTime() - 43_200),
        RETENTION_BATCH,
      );
      expect(deliveries.deleteProcessedEventsBefore).toHaveBeenCalledWith(
        new Date(NOW.getTime() - 86_400),
        RETENTION_BATCH,
      );
    });

    it('refuses a retention of zero or less days', () => {
      for (const days of ['0', '-1'])
        expect(() => loadConfig({ OUTBOX_RETENTION_DAYS: days })).toThrow(/OUTBOX_RETENTION_DAYS/);
    });

    it('counts the deleted rows per table', async () => {
      deliveries.deleteFinishedBefore.mockResolvedValueOnce({ deliveries: 3, attempts: 4 });
      deliveries.deleteProcessedEventsBefore.mockResolvedValueOnce(5);

      await sut.deleteExpired(NOW);

      expect(metrics.retentionDeleted.inc).toHaveBeenCalledWith(
        { table: 'notifications.webhook_deliveries' },
        3,
      );
      expect(metrics.retentionDeleted.inc).toHaveBeenCalledWith(
        { table: 'notifications.webhook_delivery_attempts' },
        4,
      );
      expect(metrics.retentionDeleted.inc).toHaveBeenCalledWith({ table: 'events.outbox' }, 5);
      // Each table's series was started at 0 when the janitor was made.
      expect(metrics.retentionDeleted.inc).toHaveBeenCalledWith({ table: 'events.outbox' }, 0);
    });

    it('logs a failure and leaves the rest to the next round instead of failing the process', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      deliveries.deleteFinishedBefore
        .mockResolvedValueOnce({ deliveries: RETENTION_BATCH, attempts: 1000 })
        .mockRejectedValueOnce(new Error('connection lost'));

      expect(await sut.deleteExpired(NOW)).toEqual({ deliveries: 1000, attempts: 1000, events: 0 });

      expect(warn).toHaveBeenCalledTimes(1);
      expect(deliveries.deleteProcessedEventsBefore).not.toHaveBeenCalled();
    });
  });
});
