import { newDouble } from '@test/support/doubles';
import { anAccount, principal } from '@test/support/fixtures/card-context';
import type { AccountChanges } from './account-changes';
import { AccountRepository } from './account.repository';
import { AccountsService } from './accounts.service';

describe('AccountsService', () => {
  let accounts: jest.Mocked<AccountRepository>;
  let refs: jest.Mocked<AccountChanges>;
  let sut: AccountsService;

  beforeEach(() => {
    accounts = newDouble<AccountRepository>();
    refs = newDouble<AccountChanges>();
    refs.accountChanged.mockResolvedValue(undefined);
    sut = new AccountsService(accounts, refs);
  });

  describe('createAccount', () => {
    const body = {
      accountId: 'ACC-1',
      type: 'CURRENT' as const,
      currencyCode: 'EUR',
      status: 'ACTIVE' as const,
    };

    it("creates the account in the caller's tenant and answers with it", async () => {
      accounts.createIfNew.mockResolvedValue(anAccount());

      await expect(sut.createAccount(principal, body)).resolves.toEqual({
        accountId: 'ACC-1',
        type: 'CURRENT',
        currencyCode: 'EUR',
        status: 'ACTIVE',
        createdAt: '2025-11-20T09:00:00.000Z',
      });
      expect(accounts.createIfNew).toHaveBeenCalledWith({ tenantId: principal.tenantId, ...body });
      expect(refs.accountChanged).toHaveBeenCalledWith(principal.tenantId, 'ACC-1');
    });

    it('refuses an id the tenant already uses with 409 account_exists', async () => {
      accounts.createIfNew.mockResolvedValue(null);

      await expect(sut.createAccount(principal, body)).rejects.toMatchObject({
        code: 'account_exists',
        status: 409,
        params: { accountId: 'ACC-1' },
      });
    });
  });

  describe('getAccount', () => {
    it("answers with the tenant's account", async () => {
      accounts.findByAccountId.mockResolvedValue(anAccount({ status: 'BLOCKED' }));

      await expect(sut.getAccount(principal, 'ACC-1')).resolves.toMatchObject({
        accountId: 'ACC-1',
        status: 'BLOCKED',
      });
      expect(accounts.findByAccountId).toHaveBeenCalledWith(principal.tenantId, 'ACC-1');
    });

    it('answers 404 account_not_found for an account the tenant does not have', async () => {
      accounts.findByAccountId.mockResolvedValue(null);

      await expect(sut.getAccount(principal, 'NOPE')).rejects.toMatchObject({
        code: 'account_not_found',
        status: 404,
        params: { accountId: 'NOPE' },
      });
    });
  });
});
