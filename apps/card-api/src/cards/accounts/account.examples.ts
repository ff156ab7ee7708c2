export const CREATE_ACCOUNT_EXAMPLE = { accountId: 'ACC-0001', type: 'CURRENT', currencyCode: 'EUR' };

export const ACCOUNT_EXAMPLE = {
  accountId: 'ACC-0001',
  type: 'CURRENT',
  currencyCode: 'EUR',
  status: 'ACTIVE',
  createdAt: '2025-11-20T09:00:00.000Z',
};
