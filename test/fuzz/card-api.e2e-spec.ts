import fc from 'fast-check';
import { CardApiApp } from '../../apps/card-api/src/app.definition';
import { CREATE_ACCOUNT_EXAMPLE } from '../../apps/card-api/src/cards/accounts/account.examples';
import {
  STANDARD_LABELS,
  STANDARD_PRICE_LIST_RULES,
  STANDARD_TRANSACTION_TYPES,
} from '../../apps/card-api/src/pricing/domain/standard-catalog';
import { AppWorld, startAppWorld } from '../support/app-world';
import { createCard } from '../support/builders/cards';
import { atmAbroad, provisionFeeWorld } from '../support/builders/fee-world';
import { priceListInput, PriceListInput } from '../support/builders/pricing';
import { createUsageGroup } from '../support/builders/usage-groups';
import { expectNoFindings, fuzz, FuzzTarget, fuzzTimeoutMs, loadDoc } from './fuzz-harness';
import { commonHints } from './hints';

/**
 * The card API against inputs generated from its own OpenAPI document: valid-shaped requests
 * (reaching the tenant's real accounts, cards, usage group and price list) and malformed ones.
 */
let app: AppWorld;
let target: FuzzTarget;

beforeAll(async () => {
  app = await startAppWorld(CardApiApp);
  const world = await provisionFeeWorld(app.sut.api, app.token, 'FZ');
  const doc = await loadDoc(app.sut.url);
  const accounts = Object.values(world.accounts);
  // more cards than the three of the fee world: valid-shaped status changes close some of them
  const cards = Object.values(world.cards);
  for (const accountId of accounts)
    cards.push((await createCard(app.sut.api, app.token, { accountId, usageGroup: 'STD' })).cardId);
  const serviceCodes = ['00', '0A', '01', '30'];
  // the group valid-shaped PUTs change; the cards keep STD, whose codes the settings hints list
  const group = (await createUsageGroup(app.sut.api, app.token, { allowedServiceCodes: ['00', '01'] })).code;
  const money = (max: number) =>
    fc.integer({ min: 0, max: max * 100 }).map((cents) => (cents / 100).toFixed(2));
  const types = STANDARD_TRANSACTION_TYPES.map((t) => t.code);
  const labels = STANDARD_LABELS.map((l) => l.code);
  target = {
    specFile: 'test/fuzz/card-api.e2e-spec.ts',
    baseUrl: app.sut.url,
    db: app.db,
    doc,
    token: app.token,
    hints: {
      ...commonHints(app.acme.tenant.code),
      accountId: fc.constantFrom(...accounts),
      cardId: fc.constantFrom(...cards),
      usageGroup: fc.constant('STD'),
      code: fc.constantFrom(group, ...types, ...labels),
      priceListId: fc.constant(world.standardId),
      transactionTypeCode: fc.constantFrom(...types),
      transactionTypeCodes: fc.subarray(types, { minLength: 1 }),
      labels: fc.subarray(labels),
      labelsAll: fc.subarray(labels),
      labelsNone: fc.subarray(labels),
      serviceCode: fc.constantFrom(...serviceCodes, '99'),
      // the document gives these query parameters as digits, without their bounds
      limit: fc.integer({ min: 1, max: 200 }),
      beforeVersion: fc.integer({ min: 1, max: 20 }),
      allowedServiceCodes: fc.subarray(serviceCodes),
      authorisationTypes: fc
        .tuple(...serviceCodes.map(() => fc.boolean()))
        .map((allowed) => serviceCodes.map((serviceCode, i) => ({ serviceCode, allowed: allowed[i] }))),
      status: fc.constantFrom('ACTIVE', 'BLOCKED'),
      currencyCode: fc.constantFrom('EUR', 'USD', 'GBP'),
      baseCurrency: fc.constantFrom('EUR', 'USD'),
      quoteCurrency: fc.constantFrom('GBP', 'CHF'),
      'amount:number': fc.integer({ min: 0, max: 1_000_000 }).map((cents) => cents / 100),
      'amount:string': money(50),
      ratePercent: fc.constantFrom('0.5', '1', '2.25'),
      flatAmount: fc.option(money(5), { nil: null }),
      minimum: fc.option(money(3), { nil: null }),
      maximum: fc.option(
        money(20).map((m) => String(Number(m) + 3)),
        { nil: null },
      ),
      upTo: fc.option(fc.constantFrom('500', '5000'), { nil: null }),
      postingDate: fc.constantFrom('2026-03-15', '2026-06-15', '2025-12-31'),
      validFrom: fc.constantFrom('2026-01-01', '2026-03-01'),
      validTo: fc.constantFrom(null, '2026-12-31'),
    },
    bodies: {
      // a new account id: the accountId hint names existing accounts, which a create refuses with 409
      'POST /api/v1/accounts': fc.nat().map((n) => ({ ...CREATE_ACCOUNT_EXAMPLE, accountId: `ACC-FZ-${n}` })),
      // a new card id on an open account, in the group whose codes the settings hints list
      'POST /api/v1/cards': fc.record({
        cardId: fc.nat().map((n) => `CARD-FZ-${n}`),
        accountId: fc.constantFrom(...accounts),
        network: fc.constant('VISA'),
        cardType: fc.constant('DEBIT'),
        usageGroup: fc.constant('STD'),
      }),
      'POST /api/v1/transactions/calculate-fees': fc
        .record({ amount: fc.integer({ min: 0, max: 100_000 }), card: fc.constantFrom(...cards.slice(0, 2)) })
        .map(({ amount, card }) => ({
          ...atmAbroad(world),
          cardId: card,
          transactionAmount: { amount, currencyCode: 'EUR' },
        })),
      'POST /api/v1/price-lists': newPriceLists(accounts, cards),
      'PUT /api/v1/price-lists/{priceListId}': priceLists(accounts, cards),
    },
  };
});

/** Some of the standard rules, for a price list's body. */
const standardRules = fc.subarray(STANDARD_PRICE_LIST_RULES, { minLength: 1 });

/** Where a price list applies: the tenant, one of the accounts or one of the cards. */
function scopes(accounts: string[], cards: string[]) {
  return {
    tenant: fc.constant({ level: 'TENANT' as const }),
    account: fc.constantFrom(...accounts).map((accountId) => ({ level: 'ACCOUNT' as const, accountId })),
    card: fc.constantFrom(...cards).map((cardId) => ({ level: 'CARD' as const, cardId })),
  };
}

/** Price list bodies whose level, account and card fit together, with some of the standard rules. */
function priceLists(accounts: string[], cards: string[]): fc.Arbitrary<PriceListInput> {
  const { tenant, account, card } = scopes(accounts, cards);
  return fc
    .tuple(
      fc.oneof(tenant, account, card),
      standardRules,
      fc.constantFrom('2026-01-01', '2026-04-01'),
      fc.constantFrom(null, '2026-12-31'),
    )
    .map(([where, picked, validFrom, validTo]) =>
      priceListInput({ ...where, rules: picked, validFrom, validTo }),
    );
}

/**
 * Price lists to create: for an account or a card (the tenant's standard list is open-ended, so a
 * new tenant-level list always overlaps it), each valid for one month of its own far ahead. Drawn
 * like the updates, about half of them overlapped a list of their scope and got a 409.
 */
function newPriceLists(accounts: string[], cards: string[]): fc.Arbitrary<PriceListInput> {
  const { account, card } = scopes(accounts, cards);
  return fc
    .tuple(fc.oneof(account, card), standardRules, fc.noBias(fc.nat({ max: 9_999 })))
    .map(([where, picked, n]) => {
      const month = `${2100 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
      return priceListInput({ ...where, rules: picked, validFrom: `${month}-01`, validTo: `${month}-28` });
    });
}

afterAll(() => app?.stack.close());

describe('card API fuzz', () => {
  it(
    'answers valid-shaped requests to every documented operation as documented',
    async () => expectNoFindings(await fuzz(target, 'valid-shaped')),
    fuzzTimeoutMs(30),
  );

  it(
    'rejects malformed requests with problem+json and a stable code, changing nothing',
    async () => expectNoFindings(await fuzz(target, 'malformed')),
    fuzzTimeoutMs(30),
  );
});
