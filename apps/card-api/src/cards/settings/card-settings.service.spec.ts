import type { UnitOfWork } from '@fincore/events';
import { newDouble } from '@test/support/doubles';
import { aCard, aUsageGroup, principal } from '@test/support/fixtures/card-context';
import { aTransaction, OUTBOX_ROWS, runsIn } from '@test/support/unit-of-work-double';
import { CardRepository } from '../card/card.repository';
import type { CardEntity } from '../card/card.entity';
import { CardSettingsChangeEntity } from '../card/card-settings-change.entity';
import { CardSettingsChangeRepository } from '../card/card-settings-change.repository';
import { CardSettingsService } from './card-settings.service';

describe('CardSettingsService', () => {
  let cards: jest.Mocked<CardRepository>;
  let history: jest.Mocked<CardSettingsChangeRepository>;
  let uow: jest.Mocked<UnitOfWork>;
  let tx: ReturnType<typeof aTransaction>;
  let sut: CardSettingsService;

  beforeEach(() => {
    cards = newDouble<CardRepository>();
    history = newDouble<CardSettingsChangeRepository>();
    uow = newDouble<UnitOfWork>();
    tx = aTransaction();
    runsIn(uow, tx);
    sut = new CardSettingsService(cards, history, uow);
  });

  const found = (card: CardEntity = aCard()) => ({ card, group: aUsageGroup() });

  describe('getSettings', () => {
    it('shows the version and the settings in force of the card', async () => {
      cards.findWithUsageGroup.mockResolvedValue(found(aCard({ settingsVersion: 3 })));

      await expect(sut.getSettings(principal, 'CARD-1')).resolves.toMatchObject({
        cardId: 'CARD-1',
        version: 3,
        changedAt: '2025-11-20T09:00:00.000Z',
        renewable: true,
      });
    });

    it('answers 404 card_not_found for a card the tenant does not have', async () => {
      cards.findWithUsageGroup.mockResolvedValue(null);

      await expect(sut.getSettings(principal, 'NOPE')).rejects.toMatchObject({ code: 'card_not_found' });
    });
  });

  describe('changeSettings', () => {
    const request = (allowed01: boolean, xpaysAllowed = false) => ({
      authorisationTypes: [
        { serviceCode: '00', allowed: true },
        { serviceCode: '01', allowed: allowed01 },
        { serviceCode: '10', allowed: true },
      ],
      renewable: true,
      xpaysAllowed,
    });

    it('stores the next version, records who changed what and emits CARD_SETTINGS_CHANGED', async () => {
      cards.lockCardForChange.mockResolvedValue(found());

      const current = await sut.changeSettings(principal, 'CARD-1', request(false, true));

      expect(current.authorisationTypes).toEqual(request(false).authorisationTypes);
      expect(cards.lockCardForChange).toHaveBeenCalledWith(tx.manager, principal.tenantId, 'CARD-1');
      expect(cards.updateSettings).toHaveBeenCalledWith(
        tx.manager,
        'card-row-1',
        expect.objectContaining({
          authorisationTypes: { '00': true, '01': false, '10': true },
          xpaysAllowed: true,
          settingsVersion: 2,
        }),
      );
      const [manager, entries] = history.append.mock.calls[0];
      expect(manager).toBe(tx.manager);
      expect(entries).toEqual([
        expect.objectContaining({
          tenantId: principal.tenantId,
          cardId: 'CARD-1',
          version: 2,
          cause: 'SETTINGS_CHANGE',
          tokenId: principal.tokenId,
          changedFields: ['authorisationTypes.01', 'xpaysAllowed'],
        }),
      ]);
      expect(tx.emitAll).toHaveBeenCalledWith('CARD_SETTINGS_CHANGED', principal.tenantCode, [
        expect.objectContaining({ cardId: 'CARD-1', cause: 'SETTINGS_CHANGE', current }),
      ]);
    });

    it('writes and emits nothing when the settings in force stay the same', async () => {
      cards.lockCardForChange.mockResolvedValue(found());

      await expect(sut.changeSettings(principal, 'CARD-1', request(true))).resolves.toMatchObject({
        renewable: true,
      });
      expect(cards.updateSettings).not.toHaveBeenCalled();
      expect(history.append).not.toHaveBeenCalled();
      expect(tx.emitAll).not.toHaveBeenCalled();
    });

    it('refuses a change of a closed card with 409 card_closed', async () => {
      cards.lockCardForChange.mockResolvedValue(found(aCard({ status: 'CLOSED' })));

      await expect(sut.changeSettings(principal, 'CARD-1', request(false))).rejects.toMatchObject({
        code: 'card_closed',
        status: 409,
      });
      expect(cards.updateSettings).not.toHaveBeenCalled();
    });

    it("refuses a code the card's usage group does not allow with 422, writing nothing", async () => {
      cards.lockCardForChange.mockResolvedValue(found());
      const body = request(false);
      body.authorisationTypes.push({ serviceCode: '30', allowed: false });

      await expect(sut.changeSettings(principal, 'CARD-1', body)).rejects.toMatchObject({
        code: 'service_code_not_in_usage_group',
        status: 422,
        params: expect.objectContaining({ usageGroup: 'STANDARD' }),
      });
      expect(cards.updateSettings).not.toHaveBeenCalled();
    });

    it('answers 404 card_not_found for a card the tenant does not have', async () => {
      cards.lockCardForChange.mockResolvedValue(null);

      await expect(sut.changeSettings(principal, 'NOPE', request(false))).rejects.toMatchObject({
        code: 'card_not_found',
        status: 404,
      });
    });
  });

  describe('changeSettings in one statement', () => {
    const request = (allowed01: boolean) => ({
      authorisationTypes: [
        { serviceCode: '00', allowed: true },
        { serviceCode: '01', allowed: allowed01 },
        { serviceCode: '10', allowed: true },
      ],
      renewable: true,
      xpaysAllowed: false,
    });
    it('checks the change against the card as read and writes it with its history and event in one statement', async () => {
      cards.readCardForChange.mockResolvedValue(found());
      cards.changeSettingsIfUnchanged.mockResolvedValue(true);

      const current = await sut.changeSettings(principal, 'CARD-1', request(false));

      expect(current.authorisationTypes).toEqual(request(false).authorisationTypes);
      const [expected, update, entry, outbox] = cards.changeSettingsIfUnchanged.mock.calls[0];
      expect(expected).toEqual(found());
      expect(update).toMatchObject({
        authorisationTypes: { '00': true, '01': false, '10': true },
        settingsVersion: 2,
      });
      expect(outbox).toBe(OUTBOX_ROWS);
      expect(entry).toEqual(
        expect.objectContaining({ cardId: 'CARD-1', version: 2, changedFields: ['authorisationTypes.01'] }),
      );
      const [change] = uow.changeAsReadOrLocked.mock.calls[0];
      expect(change.plan(found())).toMatchObject({
        type: 'CARD_SETTINGS_CHANGED',
        tenantCode: principal.tenantCode,
        data: [expect.objectContaining({ cardId: 'CARD-1', cause: 'SETTINGS_CHANGE', current })],
      });
      expect(uow.run).not.toHaveBeenCalled();
    });

    it('checks the next change of the card against what this one wrote, without reading it', async () => {
      cards.readCardForChange.mockResolvedValue(found());
      cards.changeSettingsIfUnchanged.mockResolvedValue(true);
      await sut.changeSettings(principal, 'CARD-1', request(false));

      await sut.changeSettings(principal, 'CARD-1', request(true));

      expect(cards.readCardForChange).toHaveBeenCalledTimes(1);
      const [expected, update] = cards.changeSettingsIfUnchanged.mock.calls[1];
      expect(expected.card).toMatchObject({
        settingsVersion: 2,
        authorisationTypes: { '00': true, '01': false, '10': true },
      });
      expect(update.settingsVersion).toBe(3);
    });

    it('locks the card when it changed since this replica knew it, and reads it again only once forgotten', async () => {
      const without01 = { '00': true, '01': false, '10': true };
      cards.readCardForChange.mockResolvedValue(found());
      cards.changeSettingsIfUnchanged.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
      await sut.changeSettings(principal, 'CARD-1', request(false));
      cards.lockCardForChange.mockResolvedValue(
        found(aCard({ settingsVersion: 6, authorisationTypes: without01 })),
      );

      await sut.changeSettings(principal, 'CARD-1', request(true));

      expect(cards.readCardForChange).toHaveBeenCalledTimes(1);
      expect(
        cards.changeSettingsIfUnchanged.mock.calls.map(([expected]) => expected.card.settingsVersion),
      ).toEqual([1, 2]);
      expect(cards.updateSettings).toHaveBeenCalledWith(
        tx.manager,
        'card-row-1',
        expect.objectContaining({ settingsVersion: 7 }),
      );
    });

    it('locks the card when it changed since it was read', async () => {
      const without01 = { '00': true, '01': false, '10': true };
      cards.readCardForChange.mockResolvedValue(
        found(aCard({ settingsVersion: 5, authorisationTypes: without01 })),
      );
      cards.changeSettingsIfUnchanged.mockResolvedValue(false);
      cards.lockCardForChange.mockResolvedValue(
        found(aCard({ settingsVersion: 6, authorisationTypes: without01 })),
      );

      await sut.changeSettings(principal, 'CARD-1', request(true));

      expect(
        cards.changeSettingsIfUnchanged.mock.calls.map(([expected]) => expected.card.settingsVersion),
      ).toEqual([5]);
      expect(cards.updateSettings).toHaveBeenCalledWith(
        tx.manager,
        'card-row-1',
        expect.objectContaining({ settingsVersion: 7 }),
      );
      expect(tx.emitAll).toHaveBeenCalledTimes(1);
    });

    it('leaves refusals and no-ops to the locked card, whatever the card as read says', async () => {
      cards.readCardForChange.mockResolvedValue(found(aCard({ status: 'CLOSED' })));
      cards.lockCardForChange.mockResolvedValue(found());

      await expect(sut.changeSettings(principal, 'CARD-1', request(true))).resolves.toMatchObject({
        renewable: true,
      });

      expect(cards.changeSettingsIfUnchanged).not.toHaveBeenCalled();
      expect(cards.lockCardForChange).toHaveBeenCalled();
    });
  });

  describe('applyUsageGroupChange', () => {
    const group = aUsageGroup({ allowedServiceCodes: ['00', '30'] });

    it('drops flags of removed codes and versions each card whose settings in force change', async () => {
      const visa = aCard({
        id: 'row-a',
        cardId: 'A',
        authorisationTypes: { '00': true, '10': true, '30': false },
        settingsVersion: 4,
      });
      // 10 exists on VISA only: dropping it leaves a MASTERCARD card's settings in force alone.
      const mastercard = aCard({
        id: 'row-b',
        cardId: 'B',
        network: 'MASTERCARD',
        authorisationTypes: { '00': true, '30': true },
      });
      cards.lockCardsOfUsageGroup.mockResolvedValue([visa, mastercard]);

      await sut.applyUsageGroupChange(tx, principal, ['00', '10', '30'], group);

      expect(cards.lockCardsOfUsageGroup).toHaveBeenCalledWith(tx.manager, principal.tenantId, 'STANDARD');
      const [, updates, changedAt] = cards.updateFlagsOfCards.mock.calls[0];
      expect(updates).toEqual([{ id: 'row-a', flags: { '00': true, '30': false }, version: 5 }]);
      expect(history.append.mock.calls[0][1]).toEqual([
        expect.objectContaining({
          cardId: 'A',
          version: 5,
          cause: 'USAGE_GROUP_CHANGE',
          changedAt,
          changedFields: ['authorisationTypes.10'],
        }),
      ]);
      expect(tx.emitAll).toHaveBeenCalledWith('CARD_SETTINGS_CHANGED', principal.tenantCode, [
        expect.objectContaining({ cardId: 'A', cause: 'USAGE_GROUP_CHANGE' }),
      ]);
    });

    it('writes and emits nothing when no card of the group changes', async () => {
      cards.lockCardsOfUsageGroup.mockResolvedValue([
        aCard({ authorisationTypes: { '00': true, '30': false } }),
      ]);

      await sut.applyUsageGroupChange(tx, principal, ['00', '30'], group);

      expect(cards.updateFlagsOfCards).not.toHaveBeenCalled();
      expect(history.append).not.toHaveBeenCalled();
      expect(tx.emitAll).not.toHaveBeenCalled();
    });
  });

  describe('listHistory', () => {
    const change = (version: number) => Object.assign(new CardSettingsChangeEntity(), aChange(version));

    it('answers a page newest first and where the next page starts', async () => {
      cards.findWithUsageGroup.mockResolvedValue(found());
      history.findNewestFirst.mockResolvedValue([change(5), change(4), change(3)]);

      const page = await sut.listHistory(principal, 'CARD-1', { limit: 2, beforeVersion: 6 });

      expect(history.findNewestFirst).toHaveBeenCalledWith(principal.tenantId, 'CARD-1', 3, 6);
      expect(page.items.map((i) => i.version)).toEqual([5, 4]);
      expect(page.nextBeforeVersion).toBe(4);
    });

    it('says there is no next page on the last one', async () => {
      cards.findWithUsageGroup.mockResolvedValue(found());
      history.findNewestFirst.mockResolvedValue([change(1)]);

      const page = await sut.listHistory(principal, 'CARD-1', { limit: 2 });

      expect(page).toMatchObject({ cardId: 'CARD-1', nextBeforeVersion: null });
    });

    it('answers 404 card_not_found without reading history of a card the tenant does not have', async () => {
      cards.findWithUsageGroup.mockResolvedValue(null);

      await expect(sut.listHistory(principal, 'NOPE', { limit: 2 })).rejects.toMatchObject({
        code: 'card_not_found',
      });
      expect(history.findNewestFirst).not.toHaveBeenCalled();
    });
  });

  describe('checkAuthorisation', () => {
    it('answers from the committed settings, with their version', async () => {
      cards.findWithUsageGroup.mockResolvedValue(
        found(aCard({ authorisationTypes: { '00': true, '01': false, '10': true }, settingsVersion: 7 })),
      );

      await expect(sut.checkAuthorisation(principal, 'CARD-1', '01')).resolves.toEqual({
        cardId: 'CARD-1',
        serviceCode: '01',
        allowed: false,
        reason: 'DISABLED_IN_CARD_SETTINGS',
        settingsVersion: 7,
      });
    });

    it('refuses a code outside the catalog with 400 before reading the card', async () => {
      await expect(sut.checkAuthorisation(principal, 'CARD-1', 'ZZ')).rejects.toMatchObject({
        code: 'unknown_service_code',
        status: 400,
      });
      expect(cards.findWithUsageGroup).not.toHaveBeenCalled();
    });

    it('answers 404 card_not_found for a card the tenant does not have', async () => {
      cards.findWithUsageGroup.mockResolvedValue(null);

      await expect(sut.checkAuthorisation(principal, 'NOPE', '00')).rejects.toMatchObject({
        code: 'card_not_found',
      });
    });
  });
});

function aChange(version: number): Partial<CardSettingsChangeEntity> {
  const settings = { authorisationTypes: [], renewable: true, xpaysAllowed: false };
  return {
    tenantId: principal.tenantId,
    cardId: 'CARD-1',
    version,
    previous: settings,
    current: settings,
    changedFields: ['renewable'],
    cause: 'SETTINGS_CHANGE',
    tokenId: principal.tokenId,
    requestId: null,
    changedAt: new Date('2025-11-20T09:00:00.000Z'),
  };
}
