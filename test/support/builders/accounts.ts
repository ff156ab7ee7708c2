import { ApiClient, expectStatus } from '../http';
import { uniqueId } from './ids';

export interface AccountInput {
  accountId: string;
  type: string;
  currencyCode: string;
}

/** Opens an account through the API (201 or the test fails): a EUR current account unless told. */
export async function createAccount(
  api: ApiClient,
  token: string,
  overrides: Partial<AccountInput> = {},
): Promise<AccountInput> {
  const account = { accountId: uniqueId('ACC'), type: 'CURRENT', currencyCode: 'EUR', ...overrides };
  expectStatus(
    await api.post('/api/v1/accounts', account, { token }),
    201,
    `open account ${account.accountId}`,
  );
  return account;
}
