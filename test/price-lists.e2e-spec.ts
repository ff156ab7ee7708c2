import {
  STANDARD_LABELS,
  STANDARD_PRICE_LIST_RULES,
  STANDARD_TRANSACTION_TYPES,
} from '../apps/card-api/src/pricing/domain/standard-catalog';
import {
  createPriceList,
  priceListInput,
  putPricingCatalog,
  startCardApiReplicasWithCatalog,
} from './support/builders/pricing';
import { selectRows } from './support/db';
import { createAccount } from './support/builders/accounts';
import { eventually, expectStatus } from './support/http';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack } from './support/stack';

describe('pricing: price lists', () => {
  let stack: TestStack, a: RunningApp, b: RunningApp, token: string, tenantId: string;
  // Two replicas: a write on one must reach the quote cache of the other.
  beforeAll(async () => ({ stack, a, b, token, tenantId } = await startCardApiReplicasWithCatalog()));
  afterAll(() => stack.close());

  /** The tenant-wide STANDARD tariff of 2026, or a variant of it. */
  const tariff = (over: Record<string, unknown> = {}) =>
    priceListInput({
      code: 'STANDARD',
      name: 'Standard',
      validTo: '2026-12-31',
      rules: STANDARD_PRICE_LIST_RULES,
      ...over,
    });
  const rows = async () =>
    selectRows<{ code: string; version: number; rules: unknown }>(
      await stack.db(),
      'pricing.price_lists',
      { tenant_id: tenantId },
      { columns: 'code, version, rules', orderBy: 'code' },
    );

  it('names a date missing from the calendar once, in the language asked for, without a misleading second message', async () => {
    const german = { token, headers: { 'accept-language': 'de-DE,de;q=0.9' } };
    const badEnd = await a.api.post(
      '/api/v1/price-lists',
      tariff({ code: 'DATES', validFrom: '2026-03-01', validTo: '2026-02-30' }),
      german,
    );
    expectProblem(badEnd, 400, 'validation_failed');
    expect(badEnd.body.title).toBe('Die Anfrage ist ungültig');
    expect(badEnd.body.errors).toEqual([
      { field: 'validTo', message: 'dieses Datum gibt es im Kalender nicht' },
    ]);

    const badStart = await a.api.post(
      '/api/v1/price-lists',
      tariff({ code: 'DATES', validFrom: '2026-02-30', name: '' }),
      german,
    );
    expect(badStart.body.errors).toEqual([
      { field: 'name', message: 'darf nicht leer sein' },
      { field: 'validFrom', message: 'dieses Datum gibt es im Kalender nicht' },
    ]);
    const english = await a.api.post(
      '/api/v1/price-lists',
      tariff({ code: 'DATES', validFrom: '2026-02-30' }),
      { token },
    );
    expect(english.body.errors).toEqual([
      { field: 'validFrom', message: 'this date does not exist in the calendar' },
    ]);
  });

  it('creates, lists, shows and deletes price lists; an overlap or a taken code is a 409 that changes nothing', async () => {
    const created = await a.api.post('/api/v1/price-lists', tariff(), { token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: 'STANDARD',
      level: 'TENANT',
      accountId: null,
      cardId: null,
      validTo: '2026-12-31',
      version: 1,
    });
    expect(created.body.rules[0]).toEqual(STANDARD_PRICE_LIST_RULES[0]);

    const overlap = await a.api.post(
      '/api/v1/price-lists',
      tariff({ code: 'STANDARD-H2', validFrom: '2026-12-31', validTo: null }),
      { token },
    );
    expectProblem(overlap, 409, 'price_list_overlap');
    expect(overlap.body.detail).toContain('STANDARD');
    const taken = await a.api.post(
      '/api/v1/price-lists',
      tariff({ validFrom: '2027-01-01', validTo: null }),
      { token },
    );
    expectProblem(taken, 409, 'price_list_code_taken');
    expect((await rows()).map((r) => r.code)).toEqual(['STANDARD']);

    const next = await a.api.post(
      '/api/v1/price-lists',
      tariff({ code: 'STANDARD-2027', validFrom: '2027-01-01', validTo: null }),
      { token },
    );
    expect(next.status).toBe(201);
    const list = await a.api.get('/api/v1/price-lists?level=TENANT', { token });
    expect(list.body.items.map((l: { code: string }) => l.code)).toEqual(['STANDARD', 'STANDARD-2027']);
    expect((await a.api.delete(`/api/v1/price-lists/${next.body.id}`, { token })).status).toBe(204);
    expect((await a.api.get(`/api/v1/price-lists/${next.body.id}`, { token })).body.code).toBe(
      'price_list_not_found',
    );
    expect((await a.api.delete(`/api/v1/price-lists/${next.body.id}`, { token })).status).toBe(404);
  });

  it('refuses rules naming unknown catalog entries (422) and malformed rules (400), storing nothing', async () => {
    const before = await rows();
    const unknown = await a.api.post(
      '/api/v1/price-lists',
      tariff({
        code: 'BAD',
        validFrom: '2030-01-01',
        validTo: null,
        rules: [{ ...STANDARD_PRICE_LIST_RULES[0], transactionTypeCodes: ['TELEPORT'], labelsAll: ['MOON'] }],
      }),
      { token },
    );
    expectProblem(unknown, 422, 'unknown_catalog_entries');
    expect(unknown.body.errors).toEqual([
      { field: 'rules[0].transactionTypeCodes[0]', message: 'unknown transaction type TELEPORT' },
      { field: 'rules[0].labelsAll[0]', message: 'unknown label MOON' },
    ]);
    const tiers = [
      { upTo: '100', ratePercent: '1' },
      { upTo: '50', ratePercent: '1' },
      { upTo: null, ratePercent: '1' },
    ];
    const malformed = await a.api.post(
      '/api/v1/price-lists',
      tariff({
        code: 'BAD',
        validFrom: '2030-01-01',
        validTo: '2029-01-01',
        rules: [
          { ...STANDARD_PRICE_LIST_RULES[5], calculation: { kind: 'TIERED', mode: 'VOLUME', tiers } },
          {
            ...STANDARD_PRICE_LIST_RULES[0],
            minimum: '5.001',
            calculation: { kind: 'PERCENTAGE', ratePercent: '150' },
          },
        ],
      }),
      { token },
    );
    expectProblem(malformed, 400, 'validation_failed');
    expect(malformed.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining([
        'validTo',
        'rules[0].calculation.tiers[1].upTo',
        'rules[1].calculation.ratePercent',
      ]),
    );
    const owner = await a.api.post('/api/v1/price-lists', tariff({ code: 'BAD', level: 'ACCOUNT' }), {
      token,
    });
    expect(owner.body.errors).toEqual([{ field: 'accountId', message: 'required for level ACCOUNT' }]);
    const unknownAccount = await a.api.post(
      '/api/v1/price-lists',
      tariff({ code: 'BAD', level: 'ACCOUNT', accountId: 'ACC-NOPE' }),
      { token },
    );
    expect(unknownAccount.status).toBe(404);
    expect(await rows()).toEqual(before);
  });

  it('invalidates the quote cache of every replica when the pricing changes', async () => {
    // A tenant of its own, so that the test needs nothing from the others.
    const { token } = await stack.createTenant();
    await putPricingCatalog(a.api, token, {
      transactionTypes: STANDARD_TRANSACTION_TYPES,
      labels: STANDARD_LABELS,
    });
    const standard = await createPriceList(a.api, token, tariff());
    const { accountId } = await createAccount(a.api, token, { type: 'CREDIT' });
    const inquiry = (amount: number) => ({
      postingDate: '2026-06-01',
      transactionTypeCode: 'BALANCE_INQUIRY',
      transactionAmount: { amount, currencyCode: 'EUR' },
      labels: ['INTERNATIONAL'],
      accountId,
    });
    const quoteOnB = (amount: number) =>
      b.api.post('/api/v1/transactions/calculate-fees', inquiry(amount), { token });
    // Replica b loads (and caches) the pricing: the STANDARD tariff's 1.00 EUR, zero amounts allowed.
    expect((await quoteOnB(0)).body.totalPrice).toEqual({ amount: 1, currencyCode: 'EUR' });
    expect((await quoteOnB(10)).body.totalPrice).toEqual({ amount: 1, currencyCode: 'EUR' });

    expectStatus(
      await a.api.put(
        `/api/v1/transaction-types/BALANCE_INQUIRY`,
        { name: 'Balance inquiry', zeroAmountAllowed: false },
        { token },
      ),
      200,
      'change the transaction type',
    );
    // Replica b learns the catalog change through Redis: zero is no longer allowed there either.
    await eventually(async () => (await quoteOnB(0)).body.code === 'zero_amount_not_allowed', {
      what: 'replica b to see the catalog change',
    });

    const cheaper = STANDARD_PRICE_LIST_RULES.map((r) =>
      r.feeTypeCode === 'BALANCE_INQUIRY_FEE' ? { ...r, calculation: { kind: 'FIXED', amount: '0.50' } } : r,
    );
    const put = await a.api.put(
      `/api/v1/price-lists/${standard.id}`,
      { ...tariff(), rules: cheaper },
      { token },
    );
    expect([put.status, put.body.version]).toEqual([200, 2]);
    // Replica b, which never saw the write, quotes the new price once the invalidation reached it.
    const fresh = await eventually(
      async () => {
        const r = await quoteOnB(10);
        return r.body.totalPrice?.amount === 0.5 && r;
      },
      { what: 'replica b to quote the new price' },
    );
    expect(fresh.body.fees).toEqual([
      expect.objectContaining({ feeTypeCode: 'BALANCE_INQUIRY_FEE', amount: 0.5, currencyCode: 'EUR' }),
    ]);
  });
});
