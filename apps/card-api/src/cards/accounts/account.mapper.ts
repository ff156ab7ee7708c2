import type { z } from 'zod';
import type { AccountEntity } from './account.entity';
import type { AccountResponse } from './account.schemas';

export function mapAccount(account: AccountEntity): z.infer<typeof AccountResponse> {
  return {
    accountId: account.accountId,
    type: account.type,
    currencyCode: account.currencyCode,
    status: account.status,
    createdAt: account.createdAt.toISOString(),
  };
}
