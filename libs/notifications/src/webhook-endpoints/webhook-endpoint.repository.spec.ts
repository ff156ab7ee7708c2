import type { EntityManager } from 'typeorm';
import type { TenantEntity } from '@fincore/platform';
import { NotificationRows } from '@test/support/builders/notifications';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../notifications-data.module';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';

describe('WebhookEndpointRepository', () => {
  let db: TestDatabase;
  let rows: NotificationRows;
  let sut: WebhookEndpointRepository;
  let tenant: TenantEntity;

  beforeAll(async () => {
    db = await openTestDatabase(NOTIFICATION_ENTITIES);
    rows = new NotificationRows(db.dataSource);
    sut = new WebhookEndpointRepository(db.dataSource);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    tenant = await db.createTenant();
  });

  const inTransaction = <T>(work: (manager: EntityManager) => Promise<T>) => db.dataSource.transaction(work);

  describe('markFailing', () => {
    it('starts the failure streak once and answers it', async () => {
      const endpoint = await rows.endpoint(tenant);
      const first = new Date('2026-03-01T00:00:00Z');

      const streak = await inTransaction((m) => sut.markFailing(m, endpoint.id, first));
      const later = await inTransaction((m) =>
        sut.markFailing(m, endpoint.id, new Date('2026-03-02T00:00:00Z')),
      );

      expect(streak).toEqual({ status: 'ACTIVE', failingSince: first, failingNotifiedAt: null });
      expect(later).toEqual({ status: 'ACTIVE', failingSince: first, failingNotifiedAt: null });
    });

    it('answers undefined for an unknown endpoint', async () => {
      const streak = await inTransaction((m) =>
        sut.markFailing(m, '00000000-0000-4000-8000-000000000000', new Date()),
      );
      expect(streak).toBeUndefined();
    });
  });

  describe('markFailingNotified and clearFailingNotified', () => {
    it('marks a failing streak as reported once, and clears the mark once', async () => {
      const endpoint = await rows.endpoint(tenant);
      const other = await rows.endpoint(tenant);
      const at = new Date('2026-03-01T12:00:00Z');

      const first = await inTransaction((m) => sut.markFailingNotified(m, endpoint.id, at));
      const second = await inTransaction((m) => sut.markFailingNotified(m, endpoint.id, new Date()));
      const streak = await inTransaction((m) => sut.markFailing(m, endpoint.id, at));

      expect([first, second]).toEqual([true, false]);
      expect(streak?.failingNotifiedAt).toEqual(at);
      expect(await inTransaction((m) => sut.clearFailingNotified(m, endpoint.id))).toEqual(at);
      expect(await inTransaction((m) => sut.clearFailingNotified(m, endpoint.id))).toBeUndefined();
      expect(await inTransaction((m) => sut.clearFailingNotified(m, other.id))).toBeUndefined();
    });
  });

  describe('lockForFailedAttempt', () => {
    it("leaves the endpoint's new deliveries free to be created meanwhile (their foreign-key check)", async () => {
      const endpoint = await rows.endpoint(tenant);

      await inTransaction(async (m) => {
        await sut.lockForFailedAttempt(m, endpoint.id);
        // Another session: with FOR UPDATE held here, its KEY SHARE check would wait for this commit.
        const created = await rows.delivery(endpoint);
        expect(await rows.deliveryRow(created.id)).toMatchObject({ endpointId: endpoint.id });
      });
    });
  });

  describe('pauseFor and liftPause', () => {
    const pauseLeftMs = async (endpointId: string) =>
      (
        await db.dataSource.query(
          `SELECT EXTRACT(EPOCH FROM paused_until - clock_timestamp()) * 1000 AS ms
             FROM notifications.webhook_endpoints WHERE id = $1`,
          [endpointId],
        )
      )[0].ms as number | null;

    it('pauses the endpoint, never cuts a longer pause short, and lifts it', async () => {
      const endpoint = await rows.endpoint(tenant);
      const other = await rows.endpoint(tenant);

      await sut.pauseFor(endpoint.id, 60_000);
      await sut.pauseFor(endpoint.id, 1_000);

      expect(Number(await pauseLeftMs(endpoint.id))).toBeGreaterThan(50_000);
      expect(await pauseLeftMs(other.id)).toBeNull();
      await sut.liftPause(endpoint.id);
      expect(await pauseLeftMs(endpoint.id)).toBeNull();
    });
  });

  describe('disableIfActive', () => {
    it('disables an active endpoint with its reason and leaves a disabled one as it was', async () => {
      const active = await rows.endpoint(tenant);
      const disabled = await rows.endpoint(tenant, { status: 'DISABLED', disabledReason: 'by the tenant' });
      const now = new Date('2026-03-01T00:00:00Z');

      const changed = await inTransaction(async (m) => [
        await sut.disableIfActive(m, active.id, 'the receiver answered 410 Gone', now),
        await sut.disableIfActive(m, disabled.id, 'the receiver answered 410 Gone', now),
        await sut.disableIfActive(m, active.id, 'the receiver answered 410 Gone', now),
      ]);

      expect(changed).toEqual([true, false, false]);
      expect(await rows.endpointRow(active.id)).toMatchObject({
        status: 'DISABLED',
        disabledReason: 'the receiver answered 410 Gone',
        disabledAt: now,
      });
      expect((await rows.endpointRow(disabled.id)).disabledReason).toBe('by the tenant');
    });
  });

  describe('lockOfTenant and findOfTenant', () => {
    it("finds the tenant's endpoint unless deleted, never another tenant's", async () => {
      const endpoint = await rows.endpoint(tenant);
      const deleted = await rows.endpoint(tenant, { deletedAt: new Date() });
      const other = await db.createTenant();

      expect((await sut.findOfTenant(tenant.id, endpoint.id))?.id).toBe(endpoint.id);
      expect(await sut.findOfTenant(tenant.id, deleted.id)).toBeNull();
      expect(await sut.findOfTenant(other.id, endpoint.id)).toBeNull();
      expect((await inTransaction((m) => sut.lockOfTenant(m, tenant.id, endpoint.id)))?.id).toBe(endpoint.id);
      expect(await inTransaction((m) => sut.lockOfTenant(m, other.id, endpoint.id))).toBeNull();
    });

    it('counts and lists the endpoints that are not deleted, oldest first', async () => {
      const newer = await rows.endpoint(tenant, { createdAt: new Date('2026-01-02T00:00:00Z') });
      const older = await rows.endpoint(tenant, { createdAt: new Date('2026-01-01T00:00:00Z') });
      await rows.endpoint(tenant, { deletedAt: new Date() });

      expect(await inTransaction((m) => sut.countOfTenant(m, tenant.id))).toBe(2);
      expect((await sut.listOfTenant(tenant.id)).map((e) => e.id)).toEqual([older.id, newer.id]);
    });
  });
});
