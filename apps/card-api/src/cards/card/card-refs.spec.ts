import type Redis from 'ioredis';
import type { AppConfig } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import type { AccountRef, AccountRepository } from '../accounts/account.repository';
import { principal } from '@test/support/fixtures/card-context';
import { CardRefs } from './card-refs';
import type { CardRef, CardRepository } from './card.repository';

const CHANNEL = '{test}:card-refs-changed';
const TENANT = principal.tenantId;
const cardRef: CardRef = {
  cardId: 'CARD-1',
  accountId: 'ACC-1',
  network: 'VISA',
  cardType: 'DEBIT',
  status: 'ACTIVE',
};
const accountRef: AccountRef = {
  accountId: 'ACC-1',
  type: 'CURRENT',
  currencyCode: 'EUR',
  status: 'ACTIVE',
  cardTypes: ['DEBIT'],
};

describe('CardRefs', () => {
  let cards: jest.Mocked<CardRepository>;
  let accounts: jest.Mocked<AccountRepository>;
  let redis: jest.Mocked<Redis>;
  let sut: CardRefs;

  beforeEach(() => {
    cards = newDouble<CardRepository>();
    accounts = newDouble<AccountRepository>();
    cards.findRef.mockResolvedValue(cardRef);
    accounts.findRef.mockResolvedValue(accountRef);
    redis = newDouble<Redis>();
    redis.publish.mockResolvedValue(1);
    sut = new CardRefs(cards, accounts, redis, { QUEUE_PREFIX: 'test' } as AppConfig);
  });

  it('reads a card and an account once, then from memory', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(sut.card(TENANT, 'CARD-1')).resolves.toEqual(cardRef);
      await expect(sut.account(TENANT, 'ACC-1')).resolves.toEqual(accountRef);
    }
    expect(cards.findRef).toHaveBeenCalledTimes(1);
    expect(cards.findRef).toHaveBeenCalledWith(TENANT, 'CARD-1');
    expect(accounts.findRef).toHaveBeenCalledTimes(1);
    expect(accounts.findRef).toHaveBeenCalledWith(TENANT, 'ACC-1');
  });

  it('does not keep "not found", so a card created elsewhere is seen at once', async () => {
    cards.findRef.mockResolvedValueOnce(null);
    await expect(sut.card(TENANT, 'CARD-1')).resolves.toBeNull();
    await expect(sut.card(TENANT, 'CARD-1')).resolves.toEqual(cardRef);
    expect(cards.findRef).toHaveBeenCalledTimes(2);
  });

  it("drops a changed card and its account's card types here and announces both to the other replicas", async () => {
    await sut.card(TENANT, 'CARD-1');
    await sut.account(TENANT, 'ACC-1');
    await sut.cardChanged(TENANT, 'CARD-1', 'ACC-1');
    await sut.card(TENANT, 'CARD-1');
    await sut.account(TENANT, 'ACC-1');

    expect(cards.findRef).toHaveBeenCalledTimes(2);
    expect(accounts.findRef).toHaveBeenCalledTimes(2);
    expect(redis.publish).toHaveBeenCalledWith(CHANNEL, `card:${TENANT}:CARD-1`);
    expect(redis.publish).toHaveBeenCalledWith(CHANNEL, `account:${TENANT}:ACC-1`);
  });
});
