import { STANDARD_PRICE_LIST_RULES } from '../apps/card-api/src/pricing/domain/standard-catalog';
import { priceListInput, startCardApiReplicasWithCatalog } from './support/builders/pricing';
import { selectRows } from './support/db';
import { eventually } from './support/http';
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
    expect(overlap.status).toBe(409);
    expect(overlap.body.code).toBe('price_list_overlap');
    expect(overlap.body.detail).toContain('STANDARD');
    const taken = await a.api.post(
      '/api/v1/price-lists',
      tariff({ validFrom: '2027-01-01', validTo: null }),
      { token },
    );
    expect(taken.body.code).toBe('price_list_code_taken');
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
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('unknown_catalog_entries');
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
    expect(malformed.status).toBe(400);
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
    const body = {
      postingDate: '2026-06-01',
      transactionTypeCode: 'BALANCE_INQUIRY',
      transactionAmount: { amount: 0, currencyCode: 'EUR' },
      labels: ['INTERNATIONAL'],
      accountId: 'ACC-X',
    };
    // No account ACC-X: the quote stops at the directory, but only after loading (and caching) the pricing.
    expect((await b.api.post('/api/v1/transactions/calculate-fees', body, { token })).body.code).toBe(
      'account_not_found',
    );
    const listed = await a.api.get('/api/v1/price-lists?level=TENANT', { token });
    const standard = listed.body.items[0];
    const cheaper = STANDARD_PRICE_LIST_RULES.map((r) =>
      r.feeTypeCode === 'BALANCE_INQUIRY_FEE' ? { ...r, calculation: { kind: 'FIXED', amount: '0.50' } } : r,
    );
    await a.api.put(
      `/api/v1/transaction-types/BALANCE_INQUIRY`,
      { name: 'Balance inquiry', zeroAmountAllowed: false },
      { token },
    );
    // Replica b learns the catalog change through Redis: zero is no longer allowed there either.
    await eventually(
      async () =>
        (await b.api.post('/api/v1/transactions/calculate-fees', body, { token })).body.code ===
        'zero_amount_not_allowed',
      {
        timeoutMs: 5000,
        intervalMs: 50,
        what: 'replica b to see the catalog change',
      },
    );
    const put = await a.api.put(
      `/api/v1/price-lists/${standard.id}`,
      { ...tariff(), rules: cheaper },
      { token },
    );
    expect(put.body.version).toBe(2);
    expect((await rows()).find((r) => r.code === 'STANDARD')?.version).toBe(2);
  });
});
