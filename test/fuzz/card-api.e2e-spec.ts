import fc from 'fast-check';
import { CardApiApp } from '../../apps/card-api/src/app.definition';
import {
  STANDARD_LABELS,
  STANDARD_TRANSACTION_TYPES,
} from '../../apps/card-api/src/pricing/domain/standard-catalog';
import { AppWorld, startAppWorld } from '../support/app-world';
import { provisionFeeWorld } from '../support/builders/fee-world';
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
  const cards = Object.values(world.cards);
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
      code: fc.constantFrom('STD', ...types, ...labels),
      priceListId: fc.constant(world.standardId),
      transactionTypeCode: fc.constantFrom(...types),
      transactionTypeCodes: fc.subarray(types, { minLength: 1 }),
      labels: fc.subarray(labels),
      labelsAll: fc.subarray(labels),
      labelsNone: fc.subarray(labels),
      serviceCode: fc.constantFrom('00', '01', '0A', '30', '99'),
      allowedServiceCodes: fc.subarray(['00', '01', '0A', '30']),
      currencyCode: fc.constantFrom('EUR', 'USD', 'GBP'),
      postingDate: fc.constantFrom('2026-03-15', '2026-06-15', '2025-12-31'),
      validFrom: fc.constantFrom('2026-01-01', '2026-03-01'),
    },
    queries: {
      'GET /api/v1/cards/{cardId}/settings/history': 'SettingsHistoryQuery',
      'GET /api/v1/price-lists': 'PriceListQuery',
    },
  };
});

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
