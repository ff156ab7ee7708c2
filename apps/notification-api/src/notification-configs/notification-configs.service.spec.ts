import { EVENT_CATALOG, EVENT_TYPES, eventDataJsonSchema } from '@fincore/events';
import { NotificationConfigEntity, NotificationConfigRepository } from '@fincore/notifications';
import { Principal, ProblemException } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { NotificationConfigsService } from './notification-configs.service';

const principal: Principal = { tokenId: 't', tenantId: 'tenant-1', tenantCode: 'ACME', scopes: [] };
const at = new Date('2026-01-10T12:00:00.000Z');
const config = (overrides: Partial<NotificationConfigEntity> = {}) =>
  Object.assign(new NotificationConfigEntity(), {
    tenantId: principal.tenantId,
    notificationTypeCode: 'PERSON_UPDATED',
    channelCode: 'WEBHOOK',
    enabled: true,
    enabledAt: at,
    disabledAt: null,
    updatedAt: at,
    ...overrides,
  });

describe('NotificationConfigsService', () => {
  let configs: jest.Mocked<NotificationConfigRepository>;
  let sut: NotificationConfigsService;

  beforeEach(() => {
    configs = newDouble<NotificationConfigRepository>();
    sut = new NotificationConfigsService(configs);
  });

  describe('enable', () => {
    it("upserts the tenant's key as enabled and answers the config", async () => {
      configs.upsertEnabled.mockResolvedValue(config());

      const response = await sut.enable(principal, {
        notificationTypeCode: 'PERSON_UPDATED',
        channelCode: 'WEBHOOK',
      });

      expect(configs.upsertEnabled).toHaveBeenCalledWith(
        { tenantId: 'tenant-1', notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' },
        expect.any(Date),
      );
      expect(response).toEqual({
        notificationTypeCode: 'PERSON_UPDATED',
        channelCode: 'WEBHOOK',
        enabled: true,
        enabledAt: at.toISOString(),
        updatedAt: at.toISOString(),
      });
    });

    it('refuses a channel that is known but not implemented, writing nothing', async () => {
      const refused = sut.enable(principal, { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'EMAIL' });

      await expect(refused).rejects.toBeInstanceOf(ProblemException);
      await expect(refused).rejects.toMatchObject({
        code: 'notification_channel_not_implemented',
        status: 422,
      });
      expect(configs.upsertEnabled).not.toHaveBeenCalled();
    });
  });

  describe('disable', () => {
    it('upserts the key as disabled and answers no enabledAt', async () => {
      configs.upsertDisabled.mockResolvedValue(config({ enabled: false, disabledAt: at }));

      const response = await sut.disable(principal, {
        notificationTypeCode: 'PERSON_UPDATED',
        channelCode: 'WEBHOOK',
      });

      expect(configs.upsertDisabled).toHaveBeenCalledWith(
        { tenantId: 'tenant-1', notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' },
        expect.any(Date),
      );
      expect(response).toMatchObject({ enabled: false, enabledAt: null });
    });

    it('refuses a channel that is not implemented', async () => {
      await expect(
        sut.disable(principal, { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'SMS' }),
      ).rejects.toMatchObject({ code: 'notification_channel_not_implemented' });
      expect(configs.upsertDisabled).not.toHaveBeenCalled();
    });
  });

  describe('list', () => {
    it("answers the tenant's configs", async () => {
      configs.listOfTenant.mockResolvedValue([
        config(),
        config({ notificationTypeCode: 'CARD_SETTINGS_CHANGED' }),
      ]);

      const { items } = await sut.list(principal);

      expect(configs.listOfTenant).toHaveBeenCalledWith('tenant-1');
      expect(items.map((c) => c.notificationTypeCode)).toEqual(['PERSON_UPDATED', 'CARD_SETTINGS_CHANGED']);
    });
  });

  describe('types', () => {
    it('answers every event type with the implemented channels and the schema of its data', () => {
      const { items } = sut.types();

      expect(items.map((t) => t.code)).toEqual(EVENT_TYPES);
      const [code] = EVENT_TYPES;
      expect(items[0]).toEqual({
        code,
        description: EVENT_CATALOG[code].description,
        channels: ['WEBHOOK'],
        dataSchema: eventDataJsonSchema(code),
        thinDataSchema: eventDataJsonSchema(code, 'THIN'),
        example: EVENT_CATALOG[code].example,
      });
    });
  });
});
