import { newDouble } from '@test/support/doubles';
import type { EntityManager } from 'typeorm';
import type { ApiTokenEntity } from './api-token.entity';
import type { ApiTokenRepository } from './api-token.repository';
import { ALL_SCOPES } from './scopes';
import type { TenantEntity } from './tenant.entity';
import type { TenantRepository } from './tenant.repository';
import { TokenAdmin } from './token-admin';
import { hashToken, looksLikeToken } from './token-secret';

describe('TokenAdmin', () => {
  let tenants: jest.Mocked<TenantRepository>;
  let tokens: jest.Mocked<ApiTokenRepository>;
  let sut: TokenAdmin;
  const acme = { id: 'ten-1', code: 'ACME', name: 'Acme' } as TenantEntity;
  const manager = { name: 'operator manager' } as unknown as EntityManager;

  beforeEach(() => {
    tenants = newDouble<TenantRepository>();
    tokens = newDouble<ApiTokenRepository>();
    tenants.findByCode.mockImplementation(async (_manager, code) => (code === 'ACME' ? acme : null));
    tokens.create.mockImplementation(async (_manager, t) => ({ id: 'tok-1', ...t }) as ApiTokenEntity);
    sut = new TokenAdmin(manager, { tenants, tokens });
  });

  describe('createTenant', () => {
    it('creates a tenant named after its code unless a name is given', async () => {
      tenants.existsByCode.mockResolvedValue(false);
      tenants.create.mockResolvedValue(acme);
      await sut.createTenant('NEW_1');
      expect(tenants.existsByCode).toHaveBeenCalledWith(manager, 'NEW_1');
      expect(tenants.create).toHaveBeenCalledWith(manager, 'NEW_1', 'NEW_1');
      await sut.createTenant('NEW-2', 'New Bank');
      expect(tenants.create).toHaveBeenLastCalledWith(manager, 'NEW-2', 'New Bank');
    });

    it('refuses a malformed code before looking anything up', async () => {
      await expect(sut.createTenant('-bad code')).rejects.toThrow(/must be 1-64 letters/);
      expect(tenants.existsByCode).not.toHaveBeenCalled();
    });

    it('refuses an existing code', async () => {
      tenants.existsByCode.mockResolvedValue(true);
      await expect(sut.createTenant('ACME')).rejects.toThrow('Tenant ACME already exists');
      expect(tenants.create).not.toHaveBeenCalled();
    });
  });

  describe('findTenant', () => {
    it('finds a tenant by its code', async () => {
      expect(await sut.findTenant('ACME')).toBe(acme);
      expect(await sut.findTenant('NOPE')).toBeNull();
    });
  });

  describe('createToken', () => {
    it('stores only the hash of a new token, with every scope by default', async () => {
      const { token, entity } = await sut.createToken('ACME');
      expect(looksLikeToken(token)).toBe(true);
      expect(tokens.create).toHaveBeenCalledWith(manager, {
        tenantId: 'ten-1',
        name: 'token',
        tokenHash: hashToken(token),
        tokenPrefix: token.slice(0, 10),
        scopes: ALL_SCOPES,
      });
      expect(entity.id).toBe('tok-1');
    });

    it('keeps each given scope once', async () => {
      await sut.createToken('ACME', { scopes: ['cards:read', 'cards:read'], name: 'ci' });
      expect(tokens.create).toHaveBeenCalledWith(
        manager,
        expect.objectContaining({ name: 'ci', scopes: ['cards:read'] }),
      );
    });

    it('refuses unknown scopes and unknown tenants', async () => {
      await expect(sut.createToken('ACME', { scopes: ['cards:fly'] })).rejects.toThrow(
        /Unknown scope\(s\): cards:fly/,
      );
      await expect(sut.createToken('NOPE')).rejects.toThrow('Tenant NOPE does not exist');
      expect(tokens.create).not.toHaveBeenCalled();
    });
  });

  describe('revokeToken', () => {
    it('tells whether an unrevoked token was revoked', async () => {
      tokens.revoke.mockResolvedValue(false);
      expect(await sut.revokeToken('tok-9')).toBe(false);
      expect(tokens.revoke).toHaveBeenCalledWith(manager, 'tok-9');
    });
  });

  describe('listTokens', () => {
    it("lists the tenant's tokens", async () => {
      tokens.listByTenant.mockResolvedValue([]);
      expect(await sut.listTokens('ACME')).toEqual([]);
      expect(tokens.listByTenant).toHaveBeenCalledWith(manager, 'ten-1');
      await expect(sut.listTokens('NOPE')).rejects.toThrow('Tenant NOPE does not exist');
    });
  });

  describe('findActiveToken', () => {
    it('looks a token up by its hash, and something that is no token not at all', async () => {
      const active = { id: 'tok-1', tenantId: 'ten-1', tenantCode: 'ACME', scopes: [...ALL_SCOPES] };
      tokens.findActiveByHash.mockResolvedValue(active);
      const token = `fct_${'a'.repeat(43)}`;
      expect(await sut.findActiveToken(token)).toBe(active);
      expect(tokens.findActiveByHash).toHaveBeenCalledWith(hashToken(token));
      expect(await sut.findActiveToken('')).toBeUndefined();
      expect(await sut.findActiveToken('not a token')).toBeUndefined();
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(1);
    });
  });
});
