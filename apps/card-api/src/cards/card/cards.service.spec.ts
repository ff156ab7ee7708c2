import type { UnitOfWork } from '@fincore/events';
import { newDouble } from '@test/support/doubles';
import { AccountRepository } from '../accounts/account.repository';
import { aCard, anAccount, aUsageGroup, principal } from '@test/support/fixtures/card-context';
import { aTransaction, runsIn } from '@test/support/unit-of-work-double';
import { UsageGroupRepository } from '../usage-groups/usage-group.repository';
import { CardRefs } from './card-refs';
import { CardRepository } from './card.repository';
import { CardsService } from './cards.service';

describe('CardsService', () => {
  let cards: jest.Mocked<CardRepository>;
  let accounts: jest.Mocked<AccountRepository>;
  let usageGroups: jest.Mocked<UsageGroupRepository>;
  let uow: jest.Mocked<UnitOfWork>;
  let refs: jest.Mocked<CardRefs>;
  let sut: CardsService;
  const tx = aTransaction();

  beforeEach(() => {
    cards = newDouble<CardRepository>();
    accounts = newDouble<AccountRepository>();
    usageGroups = newDouble<UsageGroupRepository>();
    uow = newDouble<UnitOfWork>();
    runsIn(uow, tx);
    refs = newDouble<CardRefs>();
    refs.cardChanged.mockResolvedValue(undefined);
    sut = new CardsService(cards, accounts, usageGroups, uow, refs);
  });

  describe('createCard', () => {
    const body = {
      cardId: 'CARD-1',
      accountId: 'ACC-1',
      network: 'MASTERCARD' as const,
      cardType: 'DEBIT' as const,
      usageGroup: 'STANDARD',
      status: 'ACTIVE' as const,
    };

    beforeEach(() => {
      accounts.findByAccountId.mockResolvedValue(anAccount());
      usageGroups.lockForShare.mockResolvedValue(aUsageGroup({ allowedServiceCodes: ['00', '01', '10'] }));
      cards.createIfNew.mockImplementation(async (_manager, card) => aCard(card));
    });

    it("allows every code of the group that the card's network knows, when no settings are given", async () => {
      const created = await sut.createCard(principal, body);

      expect(cards.createIfNew).toHaveBeenCalledWith(
        tx.manager,
        expect.objectContaining({
          tenantId: principal.tenantId,
          cardId: 'CARD-1',
          usageGroup: 'STANDARD',
          authorisationTypes: { '00': true, '01': true },
          renewable: true,
          xpaysAllowed: false,
          settingsVersion: 1,
        }),
      );
      expect(created.settings.authorisationTypes.map((a) => a.serviceCode)).toEqual(['00', '01']);
      expect(accounts.findByAccountId).toHaveBeenCalledWith(tx.manager, principal.tenantId, 'ACC-1');
      expect(usageGroups.lockForShare).toHaveBeenCalledWith(tx.manager, principal.tenantId, 'STANDARD');
      expect(refs.cardChanged).toHaveBeenCalledWith(principal.tenantId, 'CARD-1', 'ACC-1');
    });

    it('stores the initial settings given, once they pass the rules of a settings change', async () => {
      const settings = {
        authorisationTypes: [
          { serviceCode: '00', allowed: false },
          { serviceCode: '01', allowed: true },
        ],
        renewable: false,
        xpaysAllowed: true,
      };

      const created = await sut.createCard(principal, { ...body, settings });

      expect(cards.createIfNew.mock.calls[0][1]).toMatchObject({
        authorisationTypes: { '00': false, '01': true },
        renewable: false,
        xpaysAllowed: true,
      });
      expect(created.settings).toEqual(settings);
    });

    it('refuses initial settings that break the rules, naming the settings field, and stores nothing', async () => {
      const settings = {
        authorisationTypes: [{ serviceCode: '00', allowed: true }],
        renewable: true,
        xpaysAllowed: false,
      };

      const refused = sut.createCard(principal, { ...body, settings });

      await expect(refused).rejects.toMatchObject({
        code: 'service_codes_missing',
        status: 422,
        errors: [expect.objectContaining({ field: 'settings.authorisationTypes' })],
      });
      expect(cards.createIfNew).not.toHaveBeenCalled();
    });

    it('answers 422 unknown_account when the account does not exist', async () => {
      accounts.findByAccountId.mockResolvedValue(null);

      await expect(sut.createCard(principal, body)).rejects.toMatchObject({
        code: 'unknown_account',
        status: 422,
      });
      expect(usageGroups.lockForShare).not.toHaveBeenCalled();
    });

    it('answers 422 account_closed for a closed account', async () => {
      accounts.findByAccountId.mockResolvedValue(anAccount({ status: 'CLOSED' }));

      await expect(sut.createCard(principal, body)).rejects.toMatchObject({
        code: 'account_closed',
        status: 422,
      });
    });

    it('answers 422 unknown_usage_group when the group does not exist', async () => {
      usageGroups.lockForShare.mockResolvedValue(null);

      await expect(sut.createCard(principal, body)).rejects.toMatchObject({
        code: 'unknown_usage_group',
        status: 422,
        params: { code: 'STANDARD' },
      });
    });

    it('answers 409 card_exists when the tenant already has the card id', async () => {
      cards.createIfNew.mockResolvedValue(null);

      await expect(sut.createCard(principal, body)).rejects.toMatchObject({
        code: 'card_exists',
        status: 409,
      });
    });
  });

  describe('getCard', () => {
    it('shows the card with the settings in force under its group', async () => {
      const card = aCard({ authorisationTypes: { '00': true, '01': false, '30': true } });
      cards.findWithUsageGroup.mockResolvedValue({ card, group: aUsageGroup() });

      const shown = await sut.getCard(principal, 'CARD-1');

      expect(shown.settings.authorisationTypes).toEqual([
        { serviceCode: '00', allowed: true },
        { serviceCode: '01', allowed: false },
        { serviceCode: '10', allowed: false },
      ]);
      expect(cards.findWithUsageGroup).toHaveBeenCalledWith(principal.tenantId, 'CARD-1');
    });

    it('answers 404 card_not_found for a card the tenant does not have', async () => {
      cards.findWithUsageGroup.mockResolvedValue(null);

      await expect(sut.getCard(principal, 'NOPE')).rejects.toMatchObject({
        code: 'card_not_found',
        status: 404,
      });
    });
  });

  describe('changeStatus', () => {
    const lock = (status: 'ACTIVE' | 'BLOCKED' | 'CLOSED') =>
      cards.lockCardForChange.mockResolvedValue({ card: aCard({ status }), group: aUsageGroup() });

    it('stores a new status of the locked card and answers with it', async () => {
      lock('ACTIVE');

      await expect(sut.changeStatus(principal, 'CARD-1', { status: 'BLOCKED' })).resolves.toMatchObject({
        status: 'BLOCKED',
      });
      expect(cards.lockCardForChange).toHaveBeenCalledWith(tx.manager, principal.tenantId, 'CARD-1');
      expect(cards.updateStatus).toHaveBeenCalledWith(tx.manager, 'card-row-1', 'BLOCKED');
      expect(refs.cardChanged).toHaveBeenCalledWith(principal.tenantId, 'CARD-1', 'ACC-1');
    });

    it('writes nothing when the status is already the requested one', async () => {
      lock('BLOCKED');

      await expect(sut.changeStatus(principal, 'CARD-1', { status: 'BLOCKED' })).resolves.toMatchObject({
        status: 'BLOCKED',
      });
      expect(cards.updateStatus).not.toHaveBeenCalled();
      expect(refs.cardChanged).not.toHaveBeenCalled();
    });

    it('refuses to reopen a closed card with 409 card_closed', async () => {
      lock('CLOSED');

      await expect(sut.changeStatus(principal, 'CARD-1', { status: 'ACTIVE' })).rejects.toMatchObject({
        code: 'card_closed',
        status: 409,
      });
      expect(cards.updateStatus).not.toHaveBeenCalled();
    });

    it('answers 404 card_not_found for a card the tenant does not have', async () => {
      cards.lockCardForChange.mockResolvedValue(null);

      await expect(sut.changeStatus(principal, 'NOPE', { status: 'ACTIVE' })).rejects.toMatchObject({
        code: 'card_not_found',
        status: 404,
      });
    });
  });
});
