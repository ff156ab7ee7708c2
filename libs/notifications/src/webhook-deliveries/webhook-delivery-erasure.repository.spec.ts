import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OutboxEventEntity } from '@fincore/events';
import type { TenantEntity } from '@fincore/platform';
import { NotificationRows } from '@test/support/builders/notifications';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../notifications-data.module';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
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
  const deliveryOf = async (tenant: TenantEntity, personId: string) => {
    const eventId = await rows.event(tenant, { personId });
    const d = await rows.delivery(await rows.endpoint(tenant), { eventId });
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
});
