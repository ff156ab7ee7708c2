import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { Principal } from '@fincore/platform';
import { mapAccount } from './account.mapper';
import { accountExists, accountNotFound } from './account.problems';
import { AccountChanges } from './account-changes';
import { AccountRepository } from './account.repository';
import type { CreateAccountBody } from './account.schemas';

/** Card accounts of a tenant. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly changes: AccountChanges,
  ) {}

  async createAccount(principal: Principal, body: z.infer<typeof CreateAccountBody>) {
    const account = await this.accounts.createIfNew({ tenantId: principal.tenantId, ...body });
    if (!account) throw accountExists(body.accountId);
    await this.changes.accountChanged(principal.tenantId, body.accountId);
    return mapAccount(account);
  }

  async getAccount(principal: Principal, accountId: string) {
    const account = await this.accounts.findByAccountId(principal.tenantId, accountId);
    if (!account) throw accountNotFound(accountId);
    return mapAccount(account);
  }
}
