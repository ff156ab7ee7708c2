// OpenAPI examples of the exchange-rate operations.

export const EXCHANGE_RATE_EXAMPLE = {
  baseCurrency: 'USD',
  quoteCurrency: 'EUR',
  validFrom: '2026-01-01',
  rate: '0.92',
};

export const EXCHANGE_RATE_LIST_EXAMPLE = { items: [EXCHANGE_RATE_EXAMPLE] };
