import type { DataSource, EntityManager } from 'typeorm';
import { ApiTokenEntity } from './api-token.entity';
import { TenantEntity } from './tenant.entity';
import { ALL_SCOPES, isScope } from './scopes';
import { generateToken, hashToken, tokenPrefix } from './token-secret';

export const TENANT_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Operator actions on tenants and tokens, shared by the CLI, the demo seed and the tests. */
export class TokenAdmin {
  constructor(private readonly db: DataSource | EntityManager) {}

  private get manager(): EntityManager {
    return 'manager' in this.db ? this.db.manager : this.db;
  }

  async createTenant(code: string, name?: string): Promise<TenantEntity> {
    if (!TENANT_CODE_PATTERN.test(code)) {
      throw new Error(
        `Tenant code "${code}" must be 1-64 letters, digits, _ or -, starting with a letter or digit`,
      );
    }
    const repo = this.manager.getRepository(TenantEntity);
    if (await repo.existsBy({ code })) throw new Error(`Tenant ${code} already exists`);
    return repo.save(repo.create({ code, name: name ?? code }));
  }

  async findTenant(code: string): Promise<TenantEntity | null> {
    return this.manager.getRepository(TenantEntity).findOneBy({ code });
  }

  async createToken(
    tenantCode: string,
    options: { scopes?: string[]; name?: string } = {},
  ): Promise<{ token: string; entity: ApiTokenEntity }> {
    const tenant = await this.findTenant(tenantCode);
    if (!tenant) throw new Error(`Tenant ${tenantCode} does not exist`);
    const scopes = options.scopes?.length ? options.scopes : [...ALL_SCOPES];
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length)
      throw new Error(`Unknown scope(s): ${unknown.join(', ')}; known: ${ALL_SCOPES.join(', ')}`);
    const token = generateToken();
    const repo = this.manager.getRepository(ApiTokenEntity);
    const entity = await repo.save(
      repo.create({
        tenantId: tenant.id,
        name: options.name ?? 'token',
        tokenHash: hashToken(token),
        tokenPrefix: tokenPrefix(token),
        scopes: [...new Set(scopes)],
        lastUsedAt: null,
        revokedAt: null,
      }),
    );
    return { token, entity };
  }

  /** Returns false when no unrevoked token has that id. */
  async revokeToken(id: string): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(ApiTokenEntity)
      .set({ revokedAt: () => 'now()' })
      .where('id = :id AND revoked_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async listTokens(tenantCode: string): Promise<ApiTokenEntity[]> {
    const tenant = await this.findTenant(tenantCode);
    if (!tenant) throw new Error(`Tenant ${tenantCode} does not exist`);
    return this.manager.getRepository(ApiTokenEntity).find({
      where: { tenantId: tenant.id },
      order: { createdAt: 'ASC' },
    });
  }
}
