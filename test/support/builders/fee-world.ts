import { CardApiApp } from '../../../apps/card-api/src/app.definition';
import {
  STANDARD_EXCHANGE_RATES,
  STANDARD_LABELS,
  STANDARD_PRICE_LIST_RULES,
  STANDARD_TRANSACTION_TYPES,
} from '../../../apps/card-api/src/pricing/domain/standard-catalog';
import { AppWorld, startAppWorld } from '../app-world';
import type { ApiClient, ApiResponse, RequestOptions } from '../http';
import { createAccount } from './accounts';
import { createCard } from './cards';
import { createPriceList, putPricingCatalog } from './pricing';
import { createUsageGroup } from './usage-groups';

/** A tenant ready for fee quotes: its accounts, cards and the id of its standard price list. */
export interface FeeWorld {
  accounts: { current: string; credit: string; other: string };
  cards: { debit: string; premium: string; credit: string };
  standardId: string;
}

/**
 * Provisions a tenant the way a pricing team would: the standard catalogs and rates, the standard
 * tariff (from 2026 on), accounts and cards. `suffix` tells the ids of two tenants apart.
 */
export async function provisionFeeWorld(api: ApiClient, token: string, suffix: string): Promise<FeeWorld> {
  await putPricingCatalog(api, token, {
    transactionTypes: STANDARD_TRANSACTION_TYPES,
    labels: STANDARD_LABELS,
    exchangeRates: STANDARD_EXCHANGE_RATES,
  });
  const { id: standardId } = await createPriceList(api, token, {
    code: 'STANDARD-2026',
    name: 'Standard tariff 2026',
    level: 'TENANT',
    validFrom: '2026-01-01',
    rules: STANDARD_PRICE_LIST_RULES,
  });
  await createUsageGroup(api, token, {
    code: 'STD',
    name: 'Standard',
    allowedServiceCodes: ['00', '0A', '01', '30'],
  });
  const accounts = { current: `ACC-CUR-${suffix}`, credit: `ACC-CRE-${suffix}`, other: `ACC-OTH-${suffix}` };
  await createAccount(api, token, { accountId: accounts.current, type: 'CURRENT' });
  await createAccount(api, token, { accountId: accounts.credit, type: 'CREDIT' });
  await createAccount(api, token, { accountId: accounts.other, type: 'CURRENT' });
  const cards = { debit: `CARD-DEB-${suffix}`, premium: `CARD-PRE-${suffix}`, credit: `CARD-CRE-${suffix}` };
  const card = (cardId: string, accountId: string, cardType: string) =>
    createCard(api, token, { cardId, accountId, cardType, network: 'VISA', usageGroup: 'STD' });
  await card(cards.debit, accounts.current, 'DEBIT');
  await card(cards.premium, accounts.current, 'DEBIT');
  await card(cards.credit, accounts.credit, 'CREDIT');
  return { accounts, cards, standardId };
}

/**
 * A fee quote request: 100 EUR withdrawn abroad with the debit card, in June (outside the March
 * account and card price lists a spec may add).
 */
export const atmAbroad = (world: FeeWorld) => ({
  postingDate: '2026-06-15',
  transactionTypeCode: 'ATM_WITHDRAWAL',
  transactionAmount: { amount: 100, currencyCode: 'EUR' },
  labels: ['INTERNATIONAL'],
  accountId: world.accounts.current,
  cardId: world.cards.debit,
});

/**
 * The standard tariff's PUT body with cash abroad at a flat fee (e.g. '7.00' EUR) instead of 2 %,
 * at least 5.00: a price change a quote of `atmAbroad` shows.
 */
export function standardTariffWithFlatAtmAbroadFee(amount: string) {
  const rules = STANDARD_PRICE_LIST_RULES.map((r) =>
    r.feeTypeCode === 'ATM_WITHDRAWAL_FEE' && r.labelsAll?.includes('INTERNATIONAL')
      ? { ...r, calculation: { kind: 'FIXED', amount } }
      : r,
  );
  return {
    code: 'STANDARD-2026',
    name: 'Standard tariff 2026',
    level: 'TENANT',
    validFrom: '2026-01-01',
    rules,
  };
}

/** POST /api/v1/transactions/calculate-fees (a string body as is); the answer, for the test to judge. */
export type QuoteFees = (
  body: Record<string, unknown> | string,
  options?: RequestOptions,
) => Promise<ApiResponse>;

/** The card API with acme's fee world (suffix A), and fee quotes as acme unless the options say otherwise. */
export interface FeeQuoting extends AppWorld {
  world: FeeWorld;
  quote: QuoteFees;
}

/** Starts the card API (see `startAppWorld`) and provisions acme's fee world. */
export async function startCardApiWithFeeWorld(): Promise<FeeQuoting> {
  const app = await startAppWorld(CardApiApp);
  const { sut, acme } = app;
  const world = await provisionFeeWorld(sut.api, acme.token, 'A');
  const quote: QuoteFees = (body, options = {}) =>
    sut.api.post('/api/v1/transactions/calculate-fees', body, { token: acme.token, ...options });
  return { ...app, world, quote };
}
