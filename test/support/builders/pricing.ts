import { CardApiApp } from '../../../apps/card-api/src/app.definition';
import {
  STANDARD_LABELS,
  STANDARD_TRANSACTION_TYPES,
} from '../../../apps/card-api/src/pricing/domain/standard-catalog';
import { startAppWorld } from '../app-world';
import { ApiClient, expectStatus } from '../http';
import type { RunningApp, TestStack } from '../stack';
import { uniqueId } from './ids';

export interface TransactionTypeInput {
  code: string;
  name: string;
  zeroAmountAllowed?: boolean;
}

export interface LabelInput {
  code: string;
  name: string;
}

export interface ExchangeRateInput {
  baseCurrency: string;
  quoteCurrency: string;
  validFrom: string;
  rate: string;
}

/** What a pricing team sets up before the first price list: catalog entries and rates. */
export interface PricingCatalog {
  transactionTypes: readonly TransactionTypeInput[];
  labels: readonly LabelInput[];
  exchangeRates?: readonly ExchangeRateInput[];
}

/** PUTs every transaction type, label and exchange rate of the catalog (each 200 or the test fails). */
export async function putPricingCatalog(
  api: ApiClient,
  token: string,
  catalog: PricingCatalog,
): Promise<void> {
  for (const { code, name, zeroAmountAllowed } of catalog.transactionTypes) {
    const r = await api.put(`/api/v1/transaction-types/${code}`, { name, zeroAmountAllowed }, { token });
    expectStatus(r, 200, `put transaction type ${code}`);
  }
  for (const { code, name } of catalog.labels)
    expectStatus(
      await api.put(`/api/v1/transaction-labels/${code}`, { name }, { token }),
      200,
      `put label ${code}`,
    );
  for (const rate of catalog.exchangeRates ?? [])
    expectStatus(await api.put('/api/v1/exchange-rates', rate, { token }), 200, 'put exchange rate');
}

export interface PriceListInput {
  code: string;
  name: string;
  level: 'TENANT' | 'ACCOUNT' | 'CARD' | string;
  validFrom: string;
  validTo?: string | null;
  accountId?: string;
  cardId?: string;
  rules: readonly unknown[];
}

/** A price list's POST body: a tenant-wide list valid from 2026 on, with the given rules. */
export function priceListInput(
  input: Partial<PriceListInput> & Pick<PriceListInput, 'rules'>,
): PriceListInput {
  return { code: uniqueId('PL'), name: 'Price list', level: 'TENANT', validFrom: '2026-01-01', ...input };
}

/** Creates a price list through the API (201 or the test fails); returns its id and what was sent. */
export async function createPriceList(
  api: ApiClient,
  token: string,
  input: Partial<PriceListInput> & Pick<PriceListInput, 'rules'>,
): Promise<PriceListInput & { id: string }> {
  const list = priceListInput(input);
  const r = expectStatus(
    await api.post('/api/v1/price-lists', list, { token }),
    201,
    `create price list ${list.code}`,
  );
  return { ...list, id: r.body.id };
}

/** Two instances of the card API on one database, as two replicas behind a load balancer, and one tenant. */
export interface PricingReplicas {
  stack: TestStack;
  a: RunningApp;
  b: RunningApp;
  /** The tenant's token and id; it has the standard transaction types and labels. */
  token: string;
  tenantId: string;
}

/** Starts the card API twice on a new stack (see `startAppWorld`) and puts acme's standard catalog. */
export async function startCardApiReplicasWithCatalog(): Promise<PricingReplicas> {
  const { stack, sut: a, acme } = await startAppWorld(CardApiApp);
  const b = await stack.startApp(CardApiApp);
  await putPricingCatalog(a.api, acme.token, {
    transactionTypes: STANDARD_TRANSACTION_TYPES,
    labels: STANDARD_LABELS,
  });
  return { stack, a, b, token: acme.token, tenantId: acme.tenant.id };
}
