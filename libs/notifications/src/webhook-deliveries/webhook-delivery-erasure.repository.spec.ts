import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OutboxEventEntity } from '@fincore/events';
import type { TenantEntity } from '@fincore/platform';
import { NotificationRows } from '@test/support/builders/notifications';
import { eventually } from '@test/support/http';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../notifications-data.module';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { WebhookDeliveryAttemptRepository } from './webhook-delivery-attempt.repository';
import type { AttemptRecord } from './webhook-delivery.rows';
import type { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookDeliveryErasureRepository } from './webhook-delivery-erasure.repository';

describe('WebhookDeliveryErasureRepository (PostgreSQL)', () => {
  let testDb: TestDatabase;
  let db: DataSource;
  let rows: NotificationRows;
  const sut = new WebhookDeliveryErasureRepository();

  beforeAll(async () => {
    testDb = await openTestDatabase([...NOTIFICATION_ENTITIES, OutboxEventEntity]);
    db = testDb.dataSource;
    rows = new NotificationRows(db);
  });
  afterAll(() => testDb.close());

  const attempt = (d: WebhookDeliveryEntity, attemptNumber: number, responseExcerpt: string | null) =>
    db.getRepository(WebhookDeliveryAttemptEntity).save({
      id: randomUUID(),
      deliveryId: d.id,
      tenantId: d.tenantId,
      attemptNumber,
      startedAt: new Date(),
      durationMs: 12,
      statusCode: 500,
      outcome: 'FAILED',
      error: 'HTTP 500',
      responseExcerpt,
    });
  const excerpts = async (d: WebhookDeliveryEntity) =>
    (
      await db.query(
        `SELECT response_excerpt FROM notifications.webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt_number`,
        [d.id],
      )
    ).map((r: { response_excerpt: string | null }) => r.response_excerpt);
  const lockWaiters = async () =>
    (
      await db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      )
    )[0].n as number;
  const deliveryOf = async (tenant: TenantEntity, personId: string) => {
    const eventId = await rows.event(tenant, { personId });
    const d = await rows.delivery(await rows.endpoint(tenant), { eventId, attemptCount: 2 });
    await attempt(d, 1, `echo of ${personId}`);
    await attempt(d, 2, `second echo of ${personId}`);
    return { eventId, delivery: d };
  };

  it("removes the answers to the given events' webhooks of the tenant, in the caller's transaction", async () => {
    const [tenant, other] = [await testDb.createTenant(), await testDb.createTenant()];
    const erased = await deliveryOf(tenant, 'p-erased');
    const kept = await deliveryOf(tenant, 'p-kept');
    const foreign = await rows.delivery(await rows.endpoint(other), { eventId: erased.eventId });
    await attempt(foreign, 1, 'another tenant’s answer');

    const n = await db.transaction((m) => sut.eraseResponsesToEvents(m, tenant.id, [erased.eventId]));

    expect(n).toBe(2);
    expect(await excerpts(erased.delivery)).toEqual([null, null]);
    expect(await excerpts(kept.delivery)).toEqual(['echo of p-kept', 'second echo of p-kept']);
    expect(await excerpts(foreign)).toEqual(['another tenant’s answer']);
  });

  it('does nothing for no events', async () => {
    const tenant = await testDb.createTenant();
    expect(await db.transaction((m) => sut.eraseResponsesToEvents(m, tenant.id, []))).toBe(0);
  });

  describe('an attempt that was under way when the person was erased', () => {
    const record = (d: WebhookDeliveryEntity, outcome: 'FAILED' | 'SUCCEEDED'): AttemptRecord => ({
      deliveryId: d.id,
      endpointId: d.endpointId,
      startedAt: new Date(),
      finishedAt: new Date(),
      durationMs: 5,
      statusCode: outcome === 'FAILED' ? 500 : 200,
      outcome,
      error: outcome === 'FAILED' ? 'HTTP 500' : null,
      responseExcerpt: 'the old body, echoed',
      requestHeaders: null,
      status: outcome === 'FAILED' ? 'PENDING' : 'SUCCEEDED',
      nextAttemptAt: outcome === 'FAILED' ? new Date() : null,
    });

    it('keeps no excerpt when recorded after the erasure, failed or succeeded, alone or in a batch', async () => {
      const attempts = new WebhookDeliveryAttemptRepository(db);
      const tenant = await testDb.createTenant();
      const { eventId, delivery } = await deliveryOf(tenant, 'p-late');
      await db.transaction((m) => sut.eraseResponsesToEvents(m, tenant.id, [eventId]));

      await db.transaction(async (m) => {
        await attempts.lockForFailedAttempt(m, delivery.id);
        await attempts.recordFailedAttempt(m, record(delivery, 'FAILED'));
      });
      await attempts.recordSucceededAttempts([record(delivery, 'SUCCEEDED')]);
      await attempts.recordSucceededAttempt(record(delivery, 'SUCCEEDED'));

      expect(await excerpts(delivery)).toEqual([null, null, null, null, null]);
    });

    it('loses the excerpt it recorded while the erasure waited for its lock', async () => {
      const attempts = new WebhookDeliveryAttemptRepository(db);
      const tenant = await testDb.createTenant();
      const { eventId, delivery } = await deliveryOf(tenant, 'p-racing');
      const recorder = db.createQueryRunner();
      await recorder.connect();
      await recorder.startTransaction();
      try {
        await attempts.lockForFailedAttempt(recorder.manager, delivery.id);
        await attempts.recordFailedAttempt(recorder.manager, record(delivery, 'FAILED'));
        const erasing = db.transaction((m) => sut.eraseResponsesToEvents(m, tenant.id, [eventId]));
        await eventually(async () => (await lockWaiters()) > 0, { what: 'the erasure to wait for the lock' });
        await recorder.commitTransaction();
        expect(await erasing).toBe(3);
      } finally {
        await recorder.release();
      }
      expect(await excerpts(delivery)).toEqual([null, null, null]);
    });
  });
});
