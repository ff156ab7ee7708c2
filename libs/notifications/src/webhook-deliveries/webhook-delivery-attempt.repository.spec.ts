import type { EntityManager } from 'typeorm';
import { OutboxEventEntity } from '@fincore/events';
import type { TenantEntity } from '@fincore/platform';
import { NotificationRows } from '@test/support/builders/notifications';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../notifications-data.module';
import type { WebhookEndpointEntity } from '../webhook-endpoints/webhook-endpoint.entity';
import type { AttemptRecord } from './webhook-delivery.rows';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { WebhookDeliveryAdminRepository } from './webhook-delivery-admin.repository';
import { WebhookDeliveryAttemptRepository } from './webhook-delivery-attempt.repository';

describe('WebhookDeliveryAttemptRepository', () => {
  let db: TestDatabase;
  let rows: NotificationRows;
  let sut: WebhookDeliveryAttemptRepository;
  let admin: WebhookDeliveryAdminRepository;
  let tenant: TenantEntity;
  let endpoint: WebhookEndpointEntity;

  beforeAll(async () => {
    db = await openTestDatabase([...NOTIFICATION_ENTITIES, OutboxEventEntity]);
    rows = new NotificationRows(db.dataSource);
    sut = new WebhookDeliveryAttemptRepository(db.dataSource);
    admin = new WebhookDeliveryAdminRepository(db.dataSource);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    tenant = await db.createTenant();
    endpoint = await rows.endpoint(tenant);
  });

  const attempt = (deliveryId: string, overrides: Partial<AttemptRecord> = {}): AttemptRecord => ({
    deliveryId,
    endpointId: endpoint.id,
    startedAt: new Date('2026-03-01T00:00:00Z'),
    finishedAt: new Date('2026-03-01T00:00:01Z'),
    durationMs: 31,
    statusCode: 500,
    outcome: 'FAILED',
    error: 'HTTP 500',
    responseExcerpt: 'oops',
    requestHeaders: { 'webhook-id': 'msg_test' },
    status: 'PENDING',
    nextAttemptAt: new Date('2026-03-01T00:00:06Z'),
    ...overrides,
  });
  const inTransaction = <T>(work: (manager: EntityManager) => Promise<T>) => db.dataSource.transaction(work);

  describe('findForAttempt', () => {
    it('answers the delivery with its endpoint and its outbox event', async () => {
      const eventId = await rows.event(tenant);
      const delivery = await rows.delivery(endpoint, { eventId });

      const found = await sut.findForAttempt(delivery.id);

      expect(found).toMatchObject({
        id: delivery.id,
        endpointId: endpoint.id,
        status: 'PENDING',
        endpoint: { url: endpoint.url, status: 'ACTIVE', secretSealed: 'sealed-secret' },
        event: { id: eventId, type: 'PERSON_UPDATED', tenantCode: tenant.code, correlationId: 'corr-1' },
      });
      expect(found!.event).toBeInstanceOf(OutboxEventEntity);
    });

    it("answers how much longer the endpoint's pause runs, 0 once it ran out", async () => {
      const delivery = await rows.delivery(endpoint);
      const pause = (interval: string) =>
        db.dataSource.query(
          `UPDATE notifications.webhook_endpoints SET paused_until = clock_timestamp() + $2::interval WHERE id = $1`,
          [endpoint.id, interval],
        );

      await pause('30 seconds');
      const paused = (await sut.findForAttempt(delivery.id))!.endpointPausedForMs;
      await pause('-1 second');

      expect(paused).toBeGreaterThan(20_000);
      expect(paused).toBeLessThanOrEqual(30_000);
      expect((await sut.findForAttempt(delivery.id))!.endpointPausedForMs).toBe(0);
    });

    it('answers a null event when the outbox row is gone, and undefined for no delivery', async () => {
      const delivery = await rows.delivery(endpoint);
      expect((await sut.findForAttempt(delivery.id))!.event).toBeNull();
      expect(await sut.findForAttempt('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    });
  });

  describe('recordSucceededAttempts', () => {
    const success = (deliveryId: string, finishedAt: Date) =>
      attempt(deliveryId, {
        statusCode: 200,
        outcome: 'SUCCEEDED',
        error: null,
        responseExcerpt: null,
        requestHeaders: { 'webhook-id': 'msg_test' },
        status: 'SUCCEEDED',
        nextAttemptAt: null,
        finishedAt,
      });

    it('records several successes as one each would, keeping the status of one finished meanwhile', async () => {
      await db.dataSource.query(
        `UPDATE notifications.webhook_endpoints SET failing_since = now() WHERE id = $1`,
        [endpoint.id],
      );
      const first = await rows.delivery(endpoint, { cycleAttempts: 1, attemptCount: 1 });
      const second = await rows.delivery(endpoint);
      const failed = await rows.delivery(endpoint, { status: 'FAILED', nextAttemptAt: null });
      const [early, late] = [new Date('2026-03-01T00:00:01Z'), new Date('2026-03-01T00:00:02Z')];

      const statuses = await sut.recordSucceededAttempts([
        success(first.id, early),
        success(second.id, late),
        success(failed.id, late),
      ]);

      expect(statuses).toEqual(
        new Map([
          [first.id, 'SUCCEEDED'],
          [second.id, 'SUCCEEDED'],
          [failed.id, 'FAILED'],
        ]),
      );
      expect(await rows.deliveryRow(first.id)).toMatchObject({
        status: 'SUCCEEDED',
        attemptCount: 2,
        cycleAttempts: 2,
        nextAttemptAt: null,
        deliveredAt: early,
        lastStatusCode: 200,
        lastError: null,
      });
      expect(await rows.deliveryRow(failed.id)).toMatchObject({ status: 'FAILED', deliveredAt: null });
      expect(
        (await admin.listAttempts(first.id)).map((a) => [a.attemptNumber, a.outcome, a.requestHeaders]),
      ).toEqual([[2, 'SUCCEEDED', { 'webhook-id': 'msg_test' }]]);
      expect(await admin.listAttempts(failed.id)).toHaveLength(1);
      expect(await rows.endpointRow(endpoint.id)).toMatchObject({ failingSince: null, lastSuccessAt: late });
    });

    it('skips a delivery another transaction holds instead of waiting for it', async () => {
      const held = await rows.delivery(endpoint);
      const free = await rows.delivery(endpoint);
      const holder = db.dataSource.createQueryRunner();
      await holder.connect();
      try {
        await holder.startTransaction();
        await holder.query(`SELECT id FROM notifications.webhook_deliveries WHERE id = $1 FOR UPDATE`, [
          held.id,
        ]);

        const statuses = await sut.recordSucceededAttempts([
          success(held.id, new Date()),
          success(free.id, new Date()),
        ]);

        expect([...statuses.keys()]).toEqual([free.id]);
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
      expect(await rows.deliveryRow(held.id)).toMatchObject({ status: 'PENDING', attemptCount: 0 });
    });
  });

  describe('recordSucceededAttempt', () => {
    it('writes the attempt, finishes the delivery and clears the endpoint failure streak', async () => {
      await rows.endpoint(tenant); // another endpoint stays untouched
      await db.dataSource.query(
        `UPDATE notifications.webhook_endpoints SET failing_since = now() WHERE id = $1`,
        [endpoint.id],
      );
      const delivery = await rows.delivery(endpoint, { cycleAttempts: 2, attemptCount: 2 });
      const finishedAt = new Date('2026-03-01T00:00:01Z');

      const status = await sut.recordSucceededAttempt(
        attempt(delivery.id, {
          statusCode: 200,
          outcome: 'SUCCEEDED',
          error: null,
          status: 'SUCCEEDED',
          nextAttemptAt: null,
        }),
      );

      expect(status).toBe('SUCCEEDED');
      expect(await rows.deliveryRow(delivery.id)).toMatchObject({
        status: 'SUCCEEDED',
        attemptCount: 3,
        cycleAttempts: 3,
        nextAttemptAt: null,
        deliveredAt: finishedAt,
        lastStatusCode: 200,
        lastError: null,
      });
      expect(await admin.listAttempts(delivery.id)).toEqual([
        expect.objectContaining({
          attemptNumber: 3,
          statusCode: 200,
          outcome: 'SUCCEEDED',
          durationMs: 31,
          requestHeaders: { 'webhook-id': 'msg_test' },
        }),
      ]);
      expect(await rows.endpointRow(endpoint.id)).toMatchObject({
        failingSince: null,
        lastSuccessAt: finishedAt,
      });
    });

    it('keeps the status of a delivery someone else finished meanwhile, and still records the attempt', async () => {
      const delivery = await rows.delivery(endpoint, { status: 'FAILED', nextAttemptAt: null });

      const status = await sut.recordSucceededAttempt(
        attempt(delivery.id, { outcome: 'SUCCEEDED', status: 'SUCCEEDED', nextAttemptAt: null }),
      );

      expect(status).toBe('FAILED');
      expect(await rows.deliveryRow(delivery.id)).toMatchObject({ status: 'FAILED', deliveredAt: null });
      expect(
        await db.dataSource.getRepository(WebhookDeliveryAttemptEntity).countBy({ deliveryId: delivery.id }),
      ).toBe(1);
    });
  });

  describe('lockForFailedAttempt and recordFailedAttempt', () => {
    it('answers the cycle attempts and status as locked and schedules the next attempt, cutting long errors', async () => {
      const delivery = await rows.delivery(endpoint, { cycleAttempts: 1, attemptCount: 4 });
      const next = new Date('2026-03-01T00:00:06Z');

      const [cycle, status] = await inTransaction(async (manager) => [
        await sut.lockForFailedAttempt(manager, delivery.id),
        await sut.recordFailedAttempt(manager, attempt(delivery.id, { error: 'x'.repeat(600) })),
      ]);

      expect(cycle).toEqual({ cycleAttempts: 1, attemptCount: 4, status: 'PENDING' });
      expect(status).toBe('PENDING');
      const stored = await rows.deliveryRow(delivery.id);
      expect(stored).toMatchObject({
        status: 'PENDING',
        nextAttemptAt: next,
        attemptCount: 5,
        cycleAttempts: 2,
      });
      expect(stored.lastError).toHaveLength(500);
      expect((await admin.listAttempts(delivery.id))[0].requestHeaders).toEqual({ 'webhook-id': 'msg_test' });
      expect((await rows.endpointRow(endpoint.id)).lastSuccessAt).toBeNull();
    });

    it('holds the delivery row until the transaction ends', async () => {
      const delivery = await rows.delivery(endpoint);
      await inTransaction(async (manager) => {
        await sut.lockForFailedAttempt(manager, delivery.id);
        // Another connection cannot take the row meanwhile.
        const free = await db.dataSource.query(
          `SELECT id FROM notifications.webhook_deliveries WHERE id = $1 FOR UPDATE SKIP LOCKED`,
          [delivery.id],
        );
        expect(free).toEqual([]);
      });
    });
  });

  describe('failPendingDelivery and failPendingOfEndpoint', () => {
    it('fails only pending deliveries, of that delivery or that endpoint', async () => {
      const one = await rows.delivery(endpoint);
      const two = await rows.delivery(endpoint);
      const done = await rows.delivery(endpoint, { status: 'SUCCEEDED', nextAttemptAt: null });
      const elsewhere = await rows.delivery(await rows.endpoint(tenant));

      await sut.failPendingDelivery(one.id, 'event missing');
      expect(await rows.deliveryRow(one.id)).toMatchObject({
        status: 'FAILED',
        nextAttemptAt: null,
        lastError: 'event missing',
      });
      expect((await rows.deliveryRow(two.id)).status).toBe('PENDING');

      await inTransaction((manager) => admin.failPendingOfEndpoint(manager, endpoint.id, 'endpoint deleted'));
      expect(await rows.deliveryRow(two.id)).toMatchObject({
        status: 'FAILED',
        lastError: 'endpoint deleted',
      });
      expect(await rows.deliveryRow(one.id)).toMatchObject({ lastError: 'event missing' });
      expect((await rows.deliveryRow(done.id)).status).toBe('SUCCEEDED');
      expect((await rows.deliveryRow(elsewhere.id)).status).toBe('PENDING');
    });
  });

  describe('pendingInChain', () => {
    it('finds the pending delivery ahead of one in its chain, and the next one behind it', async () => {
      const ordered = await rows.endpoint(tenant, { ordering: 'SUBJECT' });
      const link = (sequence: number, status: 'PENDING' | 'SUCCEEDED' | 'FAILED' = 'PENDING') =>
        rows.delivery(ordered, { subjectType: 'person', subjectId: 'p-1', sequence, status });
      await link(1, 'SUCCEEDED');
      const second = await link(2);
      await link(3, 'FAILED');
      const fourth = await link(4);
      const chain = { endpointId: ordered.id, subjectType: 'person', subjectId: 'p-1' };

      expect((await sut.pendingInChain({ ...chain, sequence: 4 }, 'before'))?.id).toBe(second.id);
      expect(await sut.pendingInChain({ ...chain, sequence: 2 }, 'before')).toBeUndefined();
      expect((await sut.pendingInChain({ ...chain, sequence: 2 }, 'after'))?.id).toBe(fourth.id);
      expect(await sut.pendingInChain({ ...chain, subjectId: 'p-2', sequence: 9 }, 'before')).toBeUndefined();
    });
  });
});
