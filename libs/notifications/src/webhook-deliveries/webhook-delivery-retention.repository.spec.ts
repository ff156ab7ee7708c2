import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OutboxEventEntity, OutboxRepository } from '@fincore/events';
import type { TenantEntity } from '@fincore/platform';
import { NotificationRows } from '../../../../test/support/builders/notifications';
import { openTestDatabase, TestDatabase } from '../../../../test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../notifications-data.module';
import { DeliveryStatus } from '../statuses';
import type { WebhookEndpointEntity } from '../webhook-endpoints/webhook-endpoint.entity';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import type { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookDeliveryRetentionRepository } from './webhook-delivery-retention.repository';

const DAY_MS = 24 * 3600 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

describe('Retention deletes (PostgreSQL)', () => {
  let testDb: TestDatabase;
  let db: DataSource;
  let rows: NotificationRows;
  let tenant: TenantEntity;
  let endpoint: WebhookEndpointEntity;

  beforeAll(async () => {
    testDb = await openTestDatabase([...NOTIFICATION_ENTITIES, OutboxEventEntity]);
    db = testDb.dataSource;
    rows = new NotificationRows(db);
  });
  afterAll(() => testDb.close());
  beforeEach(async () => {
    // Each case starts from empty tables, so counts are exact.
    await db.query(`DELETE FROM notifications.webhook_delivery_attempts`);
    await db.query(`DELETE FROM notifications.webhook_deliveries`);
    await db.query(`DELETE FROM events.outbox`);
    tenant = await testDb.createTenant();
    endpoint = await rows.endpoint(tenant);
  });

  const delivery = async (status: DeliveryStatus, updatedAt: Date, attempts = 0) => {
    const d = await rows.delivery(endpoint, {
      status,
      updatedAt,
      nextAttemptAt: status === DeliveryStatus.Pending ? updatedAt : null,
    });
    for (let n = 1; n <= attempts; n++) await attempt(d, n);
    return d;
  };
  const attempt = (d: WebhookDeliveryEntity, attemptNumber: number) =>
    db.getRepository(WebhookDeliveryAttemptEntity).save({
      id: randomUUID(),
      deliveryId: d.id,
      tenantId: d.tenantId,
      attemptNumber,
      startedAt: d.updatedAt,
      durationMs: 12,
      statusCode: 500,
      outcome: 'FAILED',
      error: 'HTTP 500',
      responseExcerpt: null,
    });
  const deliveryIds = async () =>
    (await db.query(`SELECT id FROM notifications.webhook_deliveries`))
      .map((r: { id: string }) => r.id)
      .sort();
  const count = async (table: string) => (await db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const processedAt = (eventId: string, at: Date | null) =>
    db.query(`UPDATE events.outbox SET processed_at = $2 WHERE id = $1`, [eventId, at]);
  const eventIds = async () =>
    (await db.query(`SELECT id FROM events.outbox`)).map((r: { id: string }) => r.id).sort();

  describe('WebhookDeliveryRetentionRepository.deleteFinishedBefore', () => {
    let sut: WebhookDeliveryRetentionRepository;
    beforeAll(() => (sut = new WebhookDeliveryRetentionRepository(db)));

    it('deletes finished deliveries past the cutoff with their attempts, and keeps newer and pending ones', async () => {
      await delivery(DeliveryStatus.Succeeded, daysAgo(40), 1);
      await delivery(DeliveryStatus.Failed, daysAgo(31), 3);
      const recent = await delivery(DeliveryStatus.Succeeded, daysAgo(29), 2);
      const oldPending = await delivery(DeliveryStatus.Pending, daysAgo(90), 4);

      expect(await sut.deleteFinishedBefore(daysAgo(30), 1000)).toEqual({ deliveries: 2, attempts: 4 });

      expect(await deliveryIds()).toEqual([recent.id, oldPending.id].sort());
      expect(await count('notifications.webhook_delivery_attempts')).toBe(6);
    });

    it('deletes at most the given number per statement', async () => {
      for (let i = 0; i < 5; i++) await delivery(DeliveryStatus.Failed, daysAgo(40), 1);

      const batches = [];
      for (let i = 0; i < 3; i++) batches.push((await sut.deleteFinishedBefore(daysAgo(30), 2)).deliveries);

      expect(batches).toEqual([2, 2, 1]);
      expect(await count('notifications.webhook_deliveries')).toBe(0);
      expect(await count('notifications.webhook_delivery_attempts')).toBe(0);
    });

    it('skips a row another transaction holds instead of waiting for it, and takes it in a later round', async () => {
      const held = await delivery(DeliveryStatus.Failed, daysAgo(40), 1);
      const free = await delivery(DeliveryStatus.Failed, daysAgo(40), 1);
      const holder = db.createQueryRunner();
      await holder.connect();
      try {
        await holder.startTransaction();
        await holder.query(`SELECT id FROM notifications.webhook_deliveries WHERE id = $1 FOR UPDATE`, [
          held.id,
        ]);

        expect(await sut.deleteFinishedBefore(daysAgo(30), 1000)).toEqual({ deliveries: 1, attempts: 1 });
        expect(await deliveryIds()).toEqual([held.id]);
        expect(await deliveryIds()).not.toContain(free.id);
      } finally {
        await holder.rollbackTransaction().catch(() => undefined);
        await holder.release();
      }
      expect(await sut.deleteFinishedBefore(daysAgo(30), 1000)).toEqual({ deliveries: 1, attempts: 1 });
    });

    it('lets deliveries be created and updated while it deletes', async () => {
      for (let i = 0; i < 6; i++) await delivery(DeliveryStatus.Succeeded, daysAgo(40), 2);
      const pending = await delivery(DeliveryStatus.Pending, daysAgo(1));

      const deleting = (async () => {
        let total = 0;
        for (let n = 2; n === 2; total += n) n = (await sut.deleteFinishedBefore(daysAgo(30), 2)).deliveries;
        return total;
      })();
      const writing = (async () => {
        const created = await delivery(DeliveryStatus.Pending, new Date());
        await db.query(`UPDATE notifications.webhook_deliveries SET attempt_count = 1 WHERE id = $1`, [
          pending.id,
        ]);
        return created;
      })();
      const [deleted, created] = await Promise.all([deleting, writing]);

      expect(deleted).toBe(6);
      expect(await deliveryIds()).toEqual([pending.id, created.id].sort());
      expect((await rows.deliveryRow(pending.id)).attemptCount).toBe(1);
      expect(await count('notifications.webhook_delivery_attempts')).toBe(0);
    });
  });

  describe('WebhookDeliveryRetentionRepository.deleteProcessedEventsBefore', () => {
    let sut: WebhookDeliveryRetentionRepository;
    beforeAll(() => (sut = new WebhookDeliveryRetentionRepository(db)));

    const event = async (processed: Date | null) => {
      const id = await rows.event(tenant);
      await processedAt(id, processed);
      return id;
    };

    it('deletes events processed before the cutoff, and keeps newer and unprocessed ones', async () => {
      await event(daysAgo(8));
      await event(daysAgo(30));
      const recent = await event(daysAgo(6));
      const unprocessed = await event(null);

      expect(await sut.deleteProcessedEventsBefore(daysAgo(7), 1000)).toBe(2);

      expect(await eventIds()).toEqual([recent, unprocessed].sort());
    });

    it('keeps an old event while a delivery still refers to it, whatever that delivery’s state', async () => {
      const ofPending = await event(daysAgo(20));
      const ofFinished = await event(daysAgo(20));
      const orphan = await event(daysAgo(20));
      await rows.delivery(endpoint, { eventId: ofPending });
      await rows.delivery(endpoint, {
        eventId: ofFinished,
        status: DeliveryStatus.Succeeded,
        nextAttemptAt: null,
      });

      expect(await sut.deleteProcessedEventsBefore(daysAgo(7), 1000)).toBe(1);

      expect(await eventIds()).toEqual([ofPending, ofFinished].sort());
      expect(await eventIds()).not.toContain(orphan);
    });

    it('deletes at most the given number per statement', async () => {
      for (let i = 0; i < 5; i++) await event(daysAgo(10));

      const batches = [];
      for (let i = 0; i < 3; i++) batches.push(await sut.deleteProcessedEventsBefore(daysAgo(7), 2));

      expect(batches).toEqual([2, 2, 1]);
      expect(await count('events.outbox')).toBe(0);
    });

    it('lets events be written and processed while it deletes', async () => {
      for (let i = 0; i < 6; i++) await event(daysAgo(10));
      const waiting = await event(null);

      const deleting = (async () => {
        let total = 0;
        for (let n = 2; n === 2; total += n) n = await sut.deleteProcessedEventsBefore(daysAgo(7), 2);
        return total;
      })();
      const writing = (async () => {
        const written = await event(null);
        expect(await new OutboxRepository(db).markProcessed(waiting)).toBe(true);
        return written;
      })();
      const [deleted, written] = await Promise.all([deleting, writing]);

      expect(deleted).toBe(6);
      expect(await eventIds()).toEqual([waiting, written].sort());
    });
  });
});
