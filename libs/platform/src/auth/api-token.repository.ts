import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiTokenEntity } from './api-token.entity';

/** An unrevoked token with the code of its tenant: what authentication needs. */
export interface ActiveToken {
  id: string;
  tenantId: string;
  tenantCode: string;
  scopes: string[];
}

export interface NewApiToken {
  tenantId: string;
  name: string;
  tokenHash: string;
  tokenPrefix: string;
  scopes: string[];
}

/**
 * The one owner of `platform.api_tokens`. Authentication reads through the DataSource; the
 * operator's methods take an EntityManager and run in the caller's transaction.
 */
@Injectable()
export class ApiTokenRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The unrevoked token with this hash and its tenant's code, in one round trip (every uncached request). */
  async findActiveByHash(tokenHash: string): Promise<ActiveToken | undefined> {
    const rows: Array<{ id: string; tenant_id: string; code: string; scopes: string[] }> =
      await this.db.query(
        `SELECT t.id, t.tenant_id, tn.code, t.scopes
         FROM platform.api_tokens t JOIN platform.tenants tn ON tn.id = t.tenant_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
        [tokenHash],
      );
    const row = rows[0];
    return row && { id: row.id, tenantId: row.tenant_id, tenantCode: row.code, scopes: row.scopes };
  }

  async touchLastUsed(tokenId: string): Promise<void> {
    await this.db.query(`UPDATE platform.api_tokens SET last_used_at = now() WHERE id = $1`, [tokenId]);
  }

  create(manager: EntityManager, token: NewApiToken): Promise<ApiTokenEntity> {
    const tokens = manager.getRepository(ApiTokenEntity);
    return tokens.save(tokens.create({ ...token, lastUsedAt: null, revokedAt: null }));
  }

  /** Returns false when no unrevoked token has that id. */
  async revoke(manager: EntityManager, id: string): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(ApiTokenEntity)
      .set({ revokedAt: () => 'now()' })
      .where('id = :id AND revoked_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** A tenant's tokens, oldest first, without their hashes. */
  listByTenant(manager: EntityManager, tenantId: string): Promise<ApiTokenEntity[]> {
    return manager.getRepository(ApiTokenEntity).find({ where: { tenantId }, order: { createdAt: 'ASC' } });
  }
}
