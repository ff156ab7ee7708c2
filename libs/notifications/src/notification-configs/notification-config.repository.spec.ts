import type { TenantEntity } from '@fincore/platform';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../notifications-data.module';
import { NotificationConfigKey, NotificationConfigRepository } from './notification-config.repository';

describe('NotificationConfigRepository', () => {
  let db: TestDatabase;
  let sut: NotificationConfigRepository;
  let tenant: TenantEntity;
  let key: NotificationConfigKey;
  const t1 = new Date('2026-01-01T00:00:00Z');
  const t2 = new Date('2026-01-02T00:00:00Z');
  const t3 = new Date('2026-01-03T00:00:00Z');

  beforeAll(async () => {
    db = await openTestDatabase(NOTIFICATION_ENTITIES);
    sut = new NotificationConfigRepository(db.dataSource);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    tenant = await db.createTenant();
    key = { tenantId: tenant.id, notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };
  });

  describe('upsertEnabled', () => {
    it('keeps the first enabledAt while enabled, and moves it when enabled again after a disable', async () => {
      expect(await sut.upsertEnabled(key, t1)).toMatchObject({ enabled: true, enabledAt: t1, updatedAt: t1 });
      expect(await sut.upsertEnabled(key, t2)).toMatchObject({ enabledAt: t1, updatedAt: t1 });

      await sut.upsertDisabled(key, t2);
      expect(await sut.upsertEnabled(key, t3)).toMatchObject({
        enabled: true,
        enabledAt: t3,
        disabledAt: t2,
      });
    });
  });

  describe('upsertDisabled', () => {
    it('keeps the first disabledAt while disabled', async () => {
      await sut.upsertEnabled(key, t1);
      expect(await sut.upsertDisabled(key, t2)).toMatchObject({
        enabled: false,
        disabledAt: t2,
        updatedAt: t2,
      });
      expect(await sut.upsertDisabled(key, t3)).toMatchObject({ disabledAt: t2, updatedAt: t2 });
    });
  });

  describe('listOfTenant', () => {
    it("lists the tenant's configs by type", async () => {
      await sut.upsertEnabled({ ...key, notificationTypeCode: 'PERSON_UPDATED' }, t1);
      await sut.upsertEnabled({ ...key, notificationTypeCode: 'CARD_SETTINGS_CHANGED' }, t1);

      const types = (await sut.listOfTenant(tenant.id)).map((c) => c.notificationTypeCode);
      expect(types).toEqual(['CARD_SETTINGS_CHANGED', 'PERSON_UPDATED']);
      expect(await sut.listOfTenant((await db.createTenant()).id)).toEqual([]);
    });
  });
});
