import type { DataSource, EntityManager } from 'typeorm';
import { ApiTokenEntity } from './api-token.entity';
import { ActiveToken, ApiTokenRepository } from './api-token.repository';
import { ALL_SCOPES, isScope } from './scopes';
import { TenantEntity } from './tenant.entity';
import { TenantRepository } from './tenant.repository';
import { generateToken, hashToken, looksLikeToken, tokenPrefix } from './token-secret';

export const TENANT_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface TokenAdminRepositories {
  tenants: TenantRepository;
  tokens: ApiTokenRepository;
}

/**
 * Operator actions on tenants and tokens, shared by the CLI, the demo seed and the tests. Built
 * on a DataSource, or on an EntityManager to act within its transaction: every repository call
 * gets that manager. The repositories are made here unless given (unit specs).
 */
export class TokenAdmin {
  private readonly manager: EntityManager;
  private readonly tenants: TenantRepository;
  private readonly tokens: ApiTokenRepository;

  constructor(db: DataSource | EntityManager, repositories?: TokenAdminRepositories) {
    this.manager = 'manager' in db ? db.manager : db;
    this.tenants = repositories?.tenants ?? new TenantRepository(this.manager.dataSource);
    this.tokens = repositories?.tokens ?? new ApiTokenRepository(this.manager.dataSource);
  }

  async createTenant(code: string, name?: string): Promise<TenantEntity> {
    if (!TENANT_CODE_PATTERN.test(code)) {
      throw new Error(
        `Tenant code "${code}" must be 1-64 letters, digits, _ or -, starting with a letter or digit`,
      );
    }
    if (await this.tenants.existsByCode(this.manager, code)) throw new Error(`Tenant ${code} already exists`);
    return this.tenants.create(this.manager, code, name ?? code);
  }

  async findTenant(code: string): Promise<TenantEntity | null> {
    return this.tenants.findByCode(this.manager, code);
  }

  async createToken(
    tenantCode: string,
    options: { scopes?: string[]; name?: string } = {},
  ): Promise<{ token: string; entity: ApiTokenEntity }> {
    const tenant = await this.existingTenant(tenantCode);
    const scopes = options.scopes?.length ? options.scopes : [...ALL_SCOPES];
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length)
      throw new Error(`Unknown scope(s): ${unknown.join(', ')}; known: ${ALL_SCOPES.join(', ')}`);
    const token = generateToken();
    const entity = await this.tokens.create(this.manager, {
      tenantId: tenant.id,
      name: options.name ?? 'token',
      tokenHash: hashToken(token),
      tokenPrefix: tokenPrefix(token),
      scopes: [...new Set(scopes)],
    });
    return { token, entity };
  }

  /** The unrevoked token with this value, if any. */
  async findActiveToken(token: string): Promise<ActiveToken | undefined> {
    return looksLikeToken(token) ? this.tokens.findActiveByHash(hashToken(token)) : undefined;
  }

  /** Returns false when no unrevoked token has that id. */
  async revokeToken(id: string): Promise<boolean> {
    return this.tokens.revoke(this.manager, id);
  }

  async listTokens(tenantCode: string): Promise<ApiTokenEntity[]> {
    const tenant = await this.existingTenant(tenantCode);
    return this.tokens.listByTenant(this.manager, tenant.id);
  }

  private async existingTenant(code: string): Promise<TenantEntity> {
    const tenant = await this.tenants.findByCode(this.manager, code);
    if (!tenant) throw new Error(`Tenant ${code} does not exist`);
    return tenant;
  }
}
