import type { UnitOfWork } from '@fincore/events';
import { newDouble } from '@test/support/doubles';
import { aUsageGroup, principal } from '@test/support/fixtures/card-context';
import { aTransaction, runsIn } from '@test/support/unit-of-work-double';
import type { UsageGroupCards } from './usage-group-cards';
import { UsageGroupRepository } from './usage-group.repository';
import { UsageGroupsService } from './usage-groups.service';

describe('UsageGroupsService', () => {
  let usageGroups: jest.Mocked<UsageGroupRepository>;
  let uow: jest.Mocked<UnitOfWork>;
  let cardSettings: jest.Mocked<UsageGroupCards>;
  let sut: UsageGroupsService;

  beforeEach(() => {
    usageGroups = newDouble<UsageGroupRepository>();
    uow = newDouble<UnitOfWork>();
    cardSettings = newDouble<UsageGroupCards>();
    sut = new UsageGroupsService(usageGroups, uow, cardSettings);
  });

  describe('createUsageGroup', () => {
    const body = { code: 'STANDARD', name: 'Standard', allowedServiceCodes: ['10', '00', '01'] };

    it('stores the codes in catalog order and answers with the group', async () => {
      usageGroups.createIfNew.mockResolvedValue(aUsageGroup());

      await expect(sut.createUsageGroup(principal, body)).resolves.toMatchObject({
        code: 'STANDARD',
        allowedServiceCodes: ['00', '01', '10'],
      });
      expect(usageGroups.createIfNew).toHaveBeenCalledWith({
        tenantId: principal.tenantId,
        code: 'STANDARD',
        name: 'Standard',
        allowedServiceCodes: ['00', '01', '10'],
      });
    });

    it('refuses a code the tenant already uses with 409 usage_group_exists', async () => {
      usageGroups.createIfNew.mockResolvedValue(null);

      await expect(sut.createUsageGroup(principal, body)).rejects.toMatchObject({
        code: 'usage_group_exists',
        status: 409,
        params: { code: 'STANDARD' },
      });
    });
  });

  describe('listUsageGroups', () => {
    it("lists the tenant's groups as the repository orders them", async () => {
      usageGroups.listByTenant.mockResolvedValue([aUsageGroup({ code: 'A' }), aUsageGroup({ code: 'B' })]);

      const { items } = await sut.listUsageGroups(principal);

      expect(items.map((g) => g.code)).toEqual(['A', 'B']);
      expect(usageGroups.listByTenant).toHaveBeenCalledWith(principal.tenantId);
    });
  });

  describe('getUsageGroup', () => {
    it('shows the codes in catalog order, whatever order they were stored in', async () => {
      usageGroups.findByCode.mockResolvedValue(aUsageGroup({ allowedServiceCodes: ['30', '00'] }));

      await expect(sut.getUsageGroup(principal, 'STANDARD')).resolves.toMatchObject({
        allowedServiceCodes: ['00', '30'],
        createdAt: '2025-11-20T09:00:00.000Z',
      });
    });

    it('answers 404 usage_group_not_found for a group the tenant does not have', async () => {
      usageGroups.findByCode.mockResolvedValue(null);

      await expect(sut.getUsageGroup(principal, 'NOPE')).rejects.toMatchObject({
        code: 'usage_group_not_found',
        status: 404,
      });
    });
  });

  describe('updateUsageGroup', () => {
    const tx = aTransaction();
    const body = { name: 'ATM only', allowedServiceCodes: ['30', '01'] };

    beforeEach(() => runsIn(uow, tx));

    it('saves the locked group and applies the change to its cards with the codes it had before', async () => {
      usageGroups.lockForUpdate.mockResolvedValue(aUsageGroup({ allowedServiceCodes: ['00', '01'] }));
      usageGroups.save.mockImplementation(async (_manager, group) => group);

      await expect(sut.updateUsageGroup(principal, 'STANDARD', body)).resolves.toMatchObject({
        name: 'ATM only',
        allowedServiceCodes: ['01', '30'],
      });
      expect(usageGroups.lockForUpdate).toHaveBeenCalledWith(tx.manager, principal.tenantId, 'STANDARD');
      const [manager, saved] = usageGroups.save.mock.calls[0];
      expect(manager).toBe(tx.manager);
      expect(saved).toMatchObject({ name: 'ATM only', allowedServiceCodes: ['01', '30'] });
      expect(cardSettings.applyUsageGroupChange).toHaveBeenCalledWith(tx, principal, ['00', '01'], saved);
    });

    it('answers 404 usage_group_not_found and changes nothing when the group is missing', async () => {
      usageGroups.lockForUpdate.mockResolvedValue(null);

      await expect(sut.updateUsageGroup(principal, 'NOPE', body)).rejects.toMatchObject({
        code: 'usage_group_not_found',
        status: 404,
        params: { code: 'NOPE' },
      });
      expect(usageGroups.save).not.toHaveBeenCalled();
      expect(cardSettings.applyUsageGroupChange).not.toHaveBeenCalled();
    });
  });
});
