import { CardApiApp } from '../apps/card-api/src/app.definition';
import { createAccount } from './support/builders/accounts';
import { changeCardStatus, createCard } from './support/builders/cards';
import {
  atmAbroad,
  FeeWorld,
  QuoteFees,
  standardTariffWithFlatAtmAbroadFee,
  startCardApiWithFeeWorld,
} from './support/builders/fee-world';
import { ApiResponse, eventually, expectStatus } from './support/http';
import { RunningApp, TestStack } from './support/stack';

describe('fee quotation (POST /api/v1/transactions/calculate-fees): while cards and prices change', () => {
  let stack: TestStack, sut: RunningApp, token: string, world: FeeWorld, quote: QuoteFees;
  beforeAll(async () => ({ stack, sut, token, world, quote } = await startCardApiWithFeeWorld()));
  afterAll(() => stack.close());

  it('prices a blocked and a closed card as an active one: a quote prices, it does not authorise', async () => {
    const request = { ...atmAbroad(world), cardId: world.cards.premium };
    const active = expectStatus(await quote(request), 200, 'quote on the active card');
    expect(active.body.totalPrice.amount).toBeGreaterThan(0);
    for (const status of ['BLOCKED', 'CLOSED']) {
      expectStatus(
        await changeCardStatus(sut.api, token, world.cards.premium, status),
        200,
        `card ${status}`,
      );
      const r = await quote(request);
      expect([r.status, r.body]).toEqual([200, active.body]);
    }
  });

  it('answers every quote during a price-list update with either the old or the new price, never an error or a mix', async () => {
    const request = atmAbroad(world);
    const old = expectStatus(await quote(request), 200, 'quote before the update');
    // Cash abroad: a flat 7.00 EUR instead of 2 %, at least 5.00 (5.00 for 100 EUR).
    const body = standardTariffWithFlatAtmAbroadFee('7.00');

    const before: ApiResponse[] = [];
    let updated = false;
    // Four clients quote without pause until the update has answered.
    const quoting = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!updated) before.push(await quote(request));
      }),
    );
    const put = await sut.api.put(`/api/v1/price-lists/${world.standardId}`, body, { token });
    updated = true;
    await quoting;
    expect([put.status, put.body.version]).toEqual([200, 2]);

    const fresh = expectStatus(await quote(request), 200, 'quote after the update');
    expect(fresh.body.totalPrice).not.toEqual(old.body.totalPrice);
    expect(fresh.body.fees).toContainEqual(
      expect.objectContaining({ feeTypeCode: 'ATM_WITHDRAWAL_FEE', amount: 7 }),
    );
    expect(before.length).toBeGreaterThan(0);
    for (const r of before) {
      expect(r.status).toBe(200);
      expect([old.body, fresh.body]).toContainEqual(r.body);
    }
    // Quotes sent after the update answered all see the new price.
    const after = await Promise.all(Array.from({ length: 8 }, () => quote(request)));
    expect(after.map((r) => r.body)).toEqual(after.map(() => fresh.body));
  });

  it('answers on another replica by the cards an account has now: a card created on one drops the account everywhere', async () => {
    const other = await stack.startApp(CardApiApp);
    const { accountId } = await createAccount(sut.api, token, { type: 'CREDIT' });
    const request = { ...atmAbroad(world), accountId, cardId: undefined };
    const onOther = () => other.api.post('/api/v1/transactions/calculate-fees', request, { token });
    // The other replica now holds the account, still without cards: no card needed.
    expectStatus(await onOther(), 200, 'quote on the other replica before the card');

    await createCard(sut.api, token, { accountId, cardType: 'DEBIT', usageGroup: 'STD' });
    await eventually(async () => (await onOther()).body.code === 'card_required', {
      what: 'the other replica to require the card once the account has a debit card',
    });
  });
});
