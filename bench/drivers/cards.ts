import {
  STANDARD_EXCHANGE_RATES,
  STANDARD_LABELS,
  STANDARD_PRICE_LIST_RULES,
  STANDARD_TRANSACTION_TYPES,
} from '../../apps/card-api/src/pricing/domain/standard-catalog';
import { BENCH_USAGE_GROUP } from '../baseline/schema';
import { inBatches } from '../support/batches';
import { api } from '../support/load';
import { BenchTenant, BenchWorld } from '../support/world';

/** The card world of the settings and fee scenarios, identical in fincore and in the baseline. */
export const BENCH_ACCOUNT = 'ACC-BENCH-001';
export const cardIds = (count: number) =>
  Array.from({ length: count }, (_, i) => `CARD-BENCH-${String(i).padStart(5, '0')}`);

/** Provisions the card world through fincore's own APIs, as a tenant's back office would. */
export async function provisionFincoreCards(
  cardApi: string,
  tenant: BenchTenant,
  count: number,
): Promise<void> {
  const h = { 'x-auth-token': tenant.token };
  for (const t of STANDARD_TRANSACTION_TYPES)
    await api(
      cardApi,
      'PUT',
      `/api/v1/transaction-types/${t.code}`,
      { name: t.name, zeroAmountAllowed: t.zeroAmountAllowed },
      h,
    );
  for (const l of STANDARD_LABELS)
    await api(cardApi, 'PUT', `/api/v1/transaction-labels/${l.code}`, { name: l.name }, h);
  for (const r of STANDARD_EXCHANGE_RATES) await api(cardApi, 'PUT', '/api/v1/exchange-rates', r, h);
  await api(
    cardApi,
    'POST',
    '/api/v1/price-lists',
    {
      code: 'BENCH-STANDARD',
      name: 'Standard tariff',
      level: 'TENANT',
      validFrom: '2026-01-01',
      rules: STANDARD_PRICE_LIST_RULES,
    },
    h,
  );
  await api(cardApi, 'POST', '/api/v1/usage-groups', BENCH_USAGE_GROUP, h);
  await api(
    cardApi,
    'POST',
    '/api/v1/accounts',
    { accountId: BENCH_ACCOUNT, type: 'CURRENT', currencyCode: 'EUR' },
    h,
  );
  await inBatches(cardIds(count), 10, (cardId) =>
    api(
      cardApi,
      'POST',
      '/api/v1/cards',
      {
        cardId,
        accountId: BENCH_ACCOUNT,
        network: 'VISA',
        cardType: 'DEBIT',
        usageGroup: BENCH_USAGE_GROUP.code,
      },
      h,
    ),
  );
}

/** The same cards in the baseline's tables: every code of the group allowed, renewable, no wallet. */
export async function provisionBaselineCards(
  world: BenchWorld,
  tenant: BenchTenant,
  count: number,
): Promise<void> {
  const flags = JSON.stringify(
    BENCH_USAGE_GROUP.allowedServiceCodes.map((serviceCode) => ({ serviceCode, allowed: true })),
  );
  await world.query(
    `INSERT INTO baseline.usage_groups (tenant_id, code, allowed_service_codes) VALUES ($1, $2, $3)`,
    [tenant.tenantId, BENCH_USAGE_GROUP.code, BENCH_USAGE_GROUP.allowedServiceCodes],
  );
  await world.query(
    `INSERT INTO baseline.cards (tenant_id, card_id, account_id, network, usage_group, status, authorisation_types, renewable, xpays_allowed)
     SELECT $1, card_id, $2, 'VISA', $3, 'ACTIVE', $4::jsonb, true, false FROM unnest($5::text[]) AS card_id`,
    [tenant.tenantId, BENCH_ACCOUNT, BENCH_USAGE_GROUP.code, flags, cardIds(count)],
  );
}

/**
 * Settings changes spread round-robin over the cards; every request really changes something
 * (round 0 blocks cash withdrawal 01 and allows the wallet, round 1 reverts, ...), so every
 * request is a full change with its event. One card is never changed twice at once as long as
 * there are more cards than connections.
 */
export function settingsChanges(cards: string[]): () => { path: string; body: string } {
  let i = 0;
  return () => {
    const n = i++;
    const cardId = cards[n % cards.length];
    const evenRound = Math.floor(n / cards.length) % 2 === 0;
    const body = {
      authorisationTypes: BENCH_USAGE_GROUP.allowedServiceCodes.map((serviceCode) => ({
        serviceCode,
        allowed: serviceCode === '01' ? !evenRound : true,
      })),
      renewable: true,
      xpaysAllowed: evenRound,
    };
    return { path: `/api/v1/cards/${cardId}/settings/change`, body: JSON.stringify(body) };
  };
}

/** A mix of quotes over the standard tariff: percentage with caps and FX, tiers, fixed, several fee lines. */
export const FEE_QUOTE_MIX = [
  {
    transactionTypeCode: 'ATM_WITHDRAWAL',
    transactionAmount: { amount: 100, currencyCode: 'EUR' },
    labels: ['INTERNATIONAL'],
  },
  {
    transactionTypeCode: 'POS_PURCHASE',
    transactionAmount: { amount: 42.5, currencyCode: 'EUR' },
    labels: ['CONTACTLESS', 'CURRENCY_CONVERSION'],
  },
  { transactionTypeCode: 'TRANSFER', transactionAmount: { amount: 12500, currencyCode: 'EUR' }, labels: [] },
  {
    transactionTypeCode: 'ATM_WITHDRAWAL',
    transactionAmount: { amount: 20000, currencyCode: 'JPY' },
    labels: ['INTERNATIONAL', 'CURRENCY_CONVERSION'],
  },
  {
    transactionTypeCode: 'QUASI_CASH',
    transactionAmount: { amount: 35, currencyCode: 'USD' },
    labels: ['DOMESTIC'],
  },
];

export function feeQuotes(cards: string[]): () => { path: string; body: string } {
  let i = 0;
  return () => {
    const n = i++;
    const q = FEE_QUOTE_MIX[n % FEE_QUOTE_MIX.length];
    const body = {
      postingDate: '2026-03-15',
      ...q,
      accountId: BENCH_ACCOUNT,
      cardId: cards[n % cards.length],
    };
    return { path: '/api/v1/transactions/calculate-fees', body: JSON.stringify(body) };
  };
}

/** Sends each quote of the mix once: both systems must answer 200 with the same total, or the comparison is void. */
export async function sameFeeQuotes(
  fincoreUrl: string,
  baselineUrl: string,
  token: string,
  cardId: string,
): Promise<string | null> {
  for (const q of FEE_QUOTE_MIX) {
    const body = { postingDate: '2026-03-15', ...q, accountId: BENCH_ACCOUNT, cardId };
    const a = await api(
      fincoreUrl,
      'POST',
      '/api/v1/transactions/calculate-fees',
      body,
      { 'x-auth-token': token },
      [200],
    );
    const b = await api(
      baselineUrl,
      'POST',
      '/api/v1/transactions/calculate-fees',
      body,
      { 'x-auth-token': token },
      [200],
    );
    const totals = [a.body.totalPrice, b.body.totalPrice].map((t) => JSON.stringify(t));
    if (totals[0] !== totals[1] || a.body.fees.length !== b.body.fees.length) {
      return `fincore and baseline disagree on ${q.transactionTypeCode} ${q.transactionAmount.amount} ${q.transactionAmount.currencyCode}: ${totals[0]} vs ${totals[1]}`;
    }
  }
  return null;
}
