import type { ApiClient } from '../http';
import { createAccount } from './accounts';
import { createCard } from './cards';
import { createPriceList, PricingCatalog, putPricingCatalog } from './pricing';
import { createUsageGroup } from './usage-groups';

/** A tenant ready for fee quotes: its accounts, cards and the id of its standard price list. */
export interface FeeWorld {
  accounts: { current: string; credit: string; other: string };
  cards: { debit: string; premium: string; credit: string };
  standardId: string;
}

/**
 * Provisions a tenant the way a pricing team would: catalogs, rates, the standard tariff (from
 * 2026 on), accounts and cards. `suffix` tells the ids of two tenants apart.
 */
export async function provisionFeeWorld(
  api: ApiClient,
  token: string,
  suffix: string,
  standard: PricingCatalog & { rules: readonly unknown[] },
): Promise<FeeWorld> {
  await putPricingCatalog(api, token, standard);
  const { id: standardId } = await createPriceList(api, token, {
    code: 'STANDARD-2026',
    name: 'Standard tariff 2026',
    level: 'TENANT',
    validFrom: '2026-01-01',
    rules: standard.rules,
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
