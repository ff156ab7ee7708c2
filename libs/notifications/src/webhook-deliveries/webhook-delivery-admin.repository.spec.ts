import type { EntityManager } from 'typeorm';
import { OutboxEventEntity } from '@fincore/events';
import type { TenantEntity } from '@fincore/platform';
import { NotificationRows } from '@test/support/builders/notifications';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../notifications-data.module';
import type { WebhookEndpointEntity } from '../webhook-endpoints/webhook-endpoint.entity';
import { WebhookDeliveryAdminRepository } from './webhook-delivery-admin.repository';

describe('WebhookDeliveryAdminRepository', () => {
  let db: TestDatabase;
  let rows: NotificationRows;
  let sut: WebhookDeliveryAdminRepository;
  let tenant: TenantEntity;
  let endpoint: WebhookEndpointEntity;

  beforeAll(async () => {
    db = await openTestDatabase([...NOTIFICATION_ENTITIES, OutboxEventEntity]);
    rows = new NotificationRows(db.dataSource);
    sut = new WebhookDeliveryAdminRepository(db.dataSource);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    tenant = await db.createTenant();
    endpoint = await rows.endpoint(tenant);
  });

  const inTransaction = <T>(work: (manager: EntityManager) => Promise<T>) => db.dataSource.transaction(work);

  describe('countPerHourOfEndpoint', () => {
    const at = (h: number, m = 0) => new Date(Date.UTC(2030, 0, 1, h, m));

    it("counts the endpoint's deliveries per UTC hour by status, zero where there were none", async () => {
      await rows.delivery(endpoint, { createdAt: at(9, 59), status: 'SUCCEEDED', nextAttemptAt: null });
      await rows.delivery(endpoint, { createdAt: at(10, 0), status: 'SUCCEEDED', nextAttemptAt: null });
      await rows.delivery(endpoint, { createdAt: at(10, 30), status: 'FAILED', nextAttemptAt: null });
      await rows.delivery(endpoint, { createdAt: at(12, 5) });
      // Outside the window, another endpoint's and another tenant's: not counted.
      await rows.delivery(endpoint, { createdAt: at(8, 59), status: 'FAILED', nextAttemptAt: null });
      await rows.delivery(endpoint, { createdAt: at(13, 0), status: 'FAILED', nextAttemptAt: null });
      await rows.delivery(await rows.endpoint(tenant), { createdAt: at(10, 1) });
      await rows.delivery(await rows.endpoint(await db.createTenant()), { createdAt: at(10, 1) });

      const hours = await sut.countPerHourOfEndpoint(tenant.id, endpoint.id, at(12, 40), 4);

      expect(hours).toEqual([
        { hour: at(9), succeeded: 1, failed: 0, pending: 0 },
        { hour: at(10), succeeded: 1, failed: 1, pending: 0 },
        { hour: at(11), succeeded: 0, failed: 0, pending: 0 },
        { hour: at(12), succeeded: 0, failed: 0, pending: 1 },
      ]);
    });

    it("answers zeros for another tenant's endpoint", async () => {
      await rows.delivery(endpoint, { createdAt: at(10), status: 'SUCCEEDED', nextAttemptAt: null });
      const other = await db.createTenant();
      const hours = await sut.countPerHourOfEndpoint(other.id, endpoint.id, at(10, 30), 2);
      expect(hours.map((h) => h.succeeded + h.failed + h.pending)).toEqual([0, 0]);
    });
  });

  describe('healthOfTenant', () => {
    const since = new Date(Date.UTC(2032, 0, 1));
    const after = (minutes: number) => new Date(since.getTime() + minutes * 60_000);
    const finished = { nextAttemptAt: null, createdAt: after(5) };

    it("counts each endpoint's deliveries since the moment by status, with the p95 of their attempts", async () => {
      const tenantOfTheirs = await db.createTenant();
      const quiet = await rows.endpoint(tenant, { createdAt: after(0) });
      const succeeded = await rows.delivery(endpoint, { ...finished, status: 'SUCCEEDED' });
      const failed = await rows.delivery(endpoint, { ...finished, status: 'FAILED' });
      await rows.delivery(endpoint, { createdAt: after(6) });
      // 20 attempts of 10, 20 … 200 ms: the 95th percentile is the 19th, 190 ms.
      for (let n = 1; n <= 10; n++) await rows.attempt(failed, { durationMs: n * 10 });
      for (let n = 11; n <= 20; n++) await rows.attempt(succeeded, { durationMs: n * 10 });
      // Before the moment, and another tenant's: not counted.
      const old = await rows.delivery(endpoint, { ...finished, createdAt: after(-1), status: 'FAILED' });
      await rows.attempt(old, { durationMs: 9_000 });
      const theirs = await rows.delivery(await rows.endpoint(tenantOfTheirs), {
        ...finished,
        status: 'FAILED',
      });
      await rows.attempt(theirs, { durationMs: 9_000 });

      expect(await sut.healthOfTenant(tenant.id, since)).toEqual([
        { endpointId: endpoint.id, succeeded: 1, failed: 1, pending: 1, p95DurationMs: 190 },
        { endpointId: quiet.id, succeeded: 0, failed: 0, pending: 0, p95DurationMs: null },
      ]);
    });
  });

  describe('pagePending', () => {
    it('pages through pending deliveries in (created_at, id) order', async () => {
      const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s));
      const first = await rows.delivery(endpoint, { createdAt: at(1) });
      await rows.delivery(endpoint, { createdAt: at(2), status: 'FAILED', nextAttemptAt: null });
      const second = await rows.delivery(endpoint, { createdAt: at(3) });
      const third = await rows.delivery(endpoint, { createdAt: at(4) });
      const start = { createdAt: at(0), id: '00000000-0000-0000-0000-000000000000' };

      const page = await sut.pagePending(start, 2, at(5));
      expect(page.map((d) => d.id)).toEqual([first.id, second.id]);
      expect(page[1]).toEqual({
        id: second.id,
        tenantId: endpoint.tenantId,
        nextAttemptAt: second.nextAttemptAt,
        createdAt: at(3),
      });
      expect((await sut.pagePending(page[1], 2, at(5))).map((d) => d.id)).toEqual([third.id]);
    });

    it('leaves out deliveries created since the given time that were never attempted', async () => {
      const at = (s: number) => new Date(Date.UTC(2031, 0, 1, 0, 0, s));
      const old = await rows.delivery(endpoint, { createdAt: at(1) });
      await rows.delivery(endpoint, { createdAt: at(3) });
      const retried = await rows.delivery(endpoint, { createdAt: at(4), attemptCount: 1 });
      const start = { createdAt: at(0), id: '00000000-0000-0000-0000-000000000000' };

      expect((await sut.pagePending(start, 10, at(2))).map((d) => d.id)).toEqual([old.id, retried.id]);
    });
  });

  describe('oldestOverdueAgeSeconds', () => {
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
    const inChain = (sequence: number) => ({ subjectType: 'person', subjectId: 'p-1', sequence });
    beforeEach(async () => {
      await db.dataSource.query(`DELETE FROM notifications.webhook_delivery_attempts`);
      await db.dataSource.query(`DELETE FROM notifications.webhook_deliveries`);
    });

    it('is 0 without a pending delivery whose time has come', async () => {
      await rows.delivery(endpoint, { nextAttemptAt: new Date(Date.now() + 60_000) });
      await rows.delivery(endpoint, { status: 'FAILED', nextAttemptAt: ago(3600) });
      expect(await sut.oldestOverdueAgeSeconds()).toBe(0);
    });

    it('is how long the most overdue delivery has been due', async () => {
      await rows.delivery(endpoint, { nextAttemptAt: ago(30) });
      await rows.delivery(endpoint, { nextAttemptAt: ago(600) });
      expect(await sut.oldestOverdueAgeSeconds()).toBeCloseTo(600, -1);
    });

    it('leaves out deliveries of a paused endpoint and those behind an earlier one of their chain', async () => {
      const paused = await rows.endpoint(tenant);
      await db.dataSource.query(
        `UPDATE notifications.webhook_endpoints SET paused_until = now() + interval '1 hour' WHERE id = $1`,
        [paused.id],
      );
      await rows.delivery(paused, { nextAttemptAt: ago(900) });
      await rows.delivery(endpoint, { ...inChain(2), nextAttemptAt: ago(800) });
      await rows.delivery(endpoint, { ...inChain(1), nextAttemptAt: ago(120) });
      expect(await sut.oldestOverdueAgeSeconds()).toBeCloseTo(120, -1);
    });
  });

  describe('lockFailedOfEndpoint and requeue', () => {
    it("puts the endpoint's failed deliveries created in [since, until) back to pending", async () => {
      const at = (day: number) => new Date(Date.UTC(2026, 0, day));
      const inRange = await rows.delivery(endpoint, { status: 'FAILED', cycleAttempts: 3, createdAt: at(2) });
      await rows.delivery(endpoint, { status: 'FAILED', createdAt: at(5) });
      await rows.delivery(endpoint, { status: 'SUCCEEDED', createdAt: at(2) });

      const ids = await inTransaction(async (manager) =>
        sut.requeue(
          manager,
          tenant.id,
          await sut.lockFailedOfEndpoint(manager, {
            tenantId: tenant.id,
            endpointId: endpoint.id,
            since: at(1),
            until: at(5),
          }),
        ),
      );

      expect(ids).toEqual([inRange.id]);
      expect(await rows.deliveryRow(inRange.id)).toMatchObject({ status: 'PENDING', cycleAttempts: 0 });
    });
  });

  describe('listOfTenant', () => {
    it('answers newest first, filtered, after the given position', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
      const older = await rows.delivery(endpoint, { createdAt: at(1) });
      const newer = await rows.delivery(endpoint, { createdAt: at(2) });
      await rows.delivery(endpoint, { createdAt: at(3), status: 'FAILED' });

      const pending = await sut.listOfTenant(tenant.id, { status: 'PENDING' }, 10);
      expect(pending.map((d) => d.id)).toEqual([newer.id, older.id]);
      const after = await sut.listOfTenant(
        tenant.id,
        { before: { createdAt: newer.createdAt, id: newer.id } },
        10,
      );
      expect(after.map((d) => d.id)).toEqual([older.id]);
      expect(await sut.listOfTenant((await db.createTenant()).id, {}, 10)).toEqual([]);
    });

    it('keeps to [since, until) beside the other filters and the position', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 0, 0, s));
      const made = [];
      for (const s of [1, 2, 3, 4, 5]) made.push(await rows.delivery(endpoint, { createdAt: at(s) }));
      await rows.delivery(endpoint, { createdAt: at(3), status: 'FAILED' });
      const ids = async (filter: Parameters<typeof sut.listOfTenant>[1]) =>
        (await sut.listOfTenant(tenant.id, { status: 'PENDING', ...filter }, 10)).map((d) => d.id);

      expect(await ids({ since: at(2), until: at(5) })).toEqual([made[3].id, made[2].id, made[1].id]);
      expect(await ids({ since: at(4) })).toEqual([made[4].id, made[3].id]);
      expect(await ids({ until: at(2) })).toEqual([made[0].id]);
      expect(await ids({ since: at(2), until: at(5), before: made[2] })).toEqual([made[1].id]);
    });

    it("puts a finished delivery back to pending, due now, with a fresh cycle, and never another tenant's", async () => {
      const succeeded = await rows.delivery(endpoint, {
        status: 'SUCCEEDED',
        cycleAttempts: 4,
        nextAttemptAt: null,
      });
      const theirs = await rows.delivery(await rows.endpoint(await db.createTenant()), { status: 'FAILED' });

      const ids = await inTransaction((manager) =>
        sut.requeue(manager, tenant.id, [succeeded.id, theirs.id]),
      );

      expect(ids).toEqual([succeeded.id]);
      expect(await rows.deliveryRow(succeeded.id)).toMatchObject({
        status: 'PENDING',
        cycleAttempts: 0,
        nextAttemptAt: expect.any(Date),
      });
      expect((await rows.deliveryRow(theirs.id)).status).toBe('FAILED');
    });
  });
});
