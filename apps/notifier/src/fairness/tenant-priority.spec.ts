import { WebhookDeliveryFanOutRepository } from '@fincore/notifications';
import { newDouble } from '../../../../test/support/doubles';
import { TenantPriority } from './tenant-priority';

describe('TenantPriority', () => {
  let deliveries: jest.Mocked<WebhookDeliveryFanOutRepository>;
  let sut: TenantPriority;

  beforeEach(() => {
    deliveries = newDouble<WebhookDeliveryFanOutRepository>();
    sut = new TenantPriority(deliveries);
  });

  describe('of', () => {
    it("answers the priority of the tenant's backlog, counted once a second at most", async () => {
      deliveries.countPendingOfTenant.mockResolvedValue(5000);

      expect(await sut.of('flooded')).toBe(13);
      expect(await sut.of('flooded')).toBe(13);
      expect(deliveries.countPendingOfTenant).toHaveBeenCalledTimes(1);
    });

    it('adds the deliveries created since the count to the backlog it kept', async () => {
      deliveries.countPendingOfTenant.mockResolvedValue(0);

      expect(await sut.of('flooding', 1)).toBe(1);
      let priority = 0;
      for (let i = 0; i < 4999; i++) priority = await sut.of('flooding', 1);

      expect(priority).toBe(13);
      expect(await sut.of('quiet', 1)).toBe(1);
      expect(deliveries.countPendingOfTenant).toHaveBeenCalledTimes(2);
    });
  });

  describe('finished', () => {
    it('takes finished deliveries off the backlog it kept, down to none, until the next count', async () => {
      deliveries.countPendingOfTenant.mockResolvedValue(0);

      for (let i = 0; i < 40; i++) {
        await sut.of('quiet', 1);
        sut.finished('quiet');
      }
      sut.finished('quiet');

      // One change after another, each delivered: no backlog, however many in the second.
      expect(await sut.of('quiet', 1)).toBe(2);
      expect(deliveries.countPendingOfTenant).toHaveBeenCalledTimes(1);
    });
  });

  describe('ofAll', () => {
    it('counts each tenant once, however many of its deliveries there are', async () => {
      deliveries.countPendingOfTenant.mockImplementation(async (tenantId) =>
        tenantId === 'quiet' ? 0 : 100,
      );

      const priorities = await sut.ofAll(['quiet', 'busy', 'busy', 'quiet']);

      expect(Object.fromEntries(priorities)).toEqual({ quiet: 1, busy: 7 });
      expect(deliveries.countPendingOfTenant).toHaveBeenCalledTimes(2);
    });
  });
});
