import { startCardApiReplicasWithCatalog } from './support/builders/pricing';
import { countRows } from './support/db';
import { RunningApp, TestStack } from './support/stack';

describe('pricing: catalogs and exchange rates', () => {
  let stack: TestStack, a: RunningApp, b: RunningApp, token: string, tenantId: string;
  // Two replicas: parallel writes of one entry arrive through both.
  beforeAll(async () => ({ stack, a, b, token, tenantId } = await startCardApiReplicasWithCatalog()));
  afterAll(() => stack.close());

  it('manages exchange rates: upsert per date, list, and refuses nonsense', async () => {
    expect(
      (
        await a.api.put(
          '/api/v1/exchange-rates',
          { baseCurrency: 'USD', quoteCurrency: 'EUR', validFrom: '2026-01-01', rate: '0.90' },
          { token },
        )
      ).status,
    ).toBe(200);
    const replaced = await a.api.put(
      '/api/v1/exchange-rates',
      { baseCurrency: 'USD', quoteCurrency: 'EUR', validFrom: '2026-01-01', rate: '0.92' },
      { token },
    );
    expect(replaced.body).toEqual({
      baseCurrency: 'USD',
      quoteCurrency: 'EUR',
      validFrom: '2026-01-01',
      rate: '0.92',
    });
    const list = await a.api.get('/api/v1/exchange-rates', { token });
    expect(list.body.items).toEqual([
      { baseCurrency: 'USD', quoteCurrency: 'EUR', validFrom: '2026-01-01', rate: '0.92' },
    ]);
    const bad = await a.api.put(
      '/api/v1/exchange-rates',
      { baseCurrency: 'EUR', quoteCurrency: 'EUR', validFrom: '2026-02-30', rate: '0' },
      { token },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['rate', 'validFrom']),
    );
  });

  it('answers every one of many parallel PUTs of one new catalog entry or rate (an upsert, never a 500)', async () => {
    const puts = (i: number) => [
      a.api.put('/api/v1/transaction-types/PARALLEL_TYPE', { name: `Parallel ${i}` }, { token }),
      b.api.put('/api/v1/transaction-labels/PARALLEL_LABEL', { name: `Parallel ${i}` }, { token }),
      a.api.put(
        '/api/v1/exchange-rates',
        { baseCurrency: 'CHF', quoteCurrency: 'EUR', validFrom: '2026-05-01', rate: `1.0${i}` },
        { token },
      ),
    ];
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => puts(i)).flat());
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const db = await stack.db();
    const n =
      (await countRows(db, 'pricing.transaction_types', { tenant_id: tenantId, code: 'PARALLEL_TYPE' })) +
      (await countRows(db, 'pricing.labels', { tenant_id: tenantId, code: 'PARALLEL_LABEL' })) +
      (await countRows(db, 'pricing.exchange_rates', { tenant_id: tenantId, base_currency: 'CHF' }));
    expect(n).toBe(3);
  });

  it('needs pricing:write to change and pricing:read to read; another tenant sees none of it', async () => {
    const fixture = await stack.createTenant();
    const reader = await fixture.tokenWith(['pricing:read']);
    expect(
      (await a.api.put('/api/v1/transaction-labels/VIP', { name: 'VIP' }, { token: reader })).status,
    ).toBe(403);
    expect((await a.api.get('/api/v1/price-lists', { token: reader })).body.items).toEqual([]);
    expect((await a.api.get('/api/v1/transaction-labels', { token: reader })).body.items).toEqual([]);
  });
});
