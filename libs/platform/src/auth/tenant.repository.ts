import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { TenantEntity } from './tenant.entity';

/**
 * The one owner of `platform.tenants`. Methods that take an EntityManager run in the caller's
 * transaction (the demo seed creates its tenant in the transaction that fills it).
 */
@Injectable()
export class TenantRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  findByCode(manager: EntityManager, code: string): Promise<TenantEntity | null> {
    return manager.getRepository(TenantEntity).findOneBy({ code });
  }

  existsByCode(manager: EntityManager, code: string): Promise<boolean> {
    return manager.getRepository(TenantEntity).existsBy({ code });
  }

  /** True before the first tenant exists: a fresh installation. */
  async isEmpty(): Promise<boolean> {
    return !(await this.db.getRepository(TenantEntity).exists());
  }

  create(manager: EntityManager, code: string, name: string): Promise<TenantEntity> {
    const tenants = manager.getRepository(TenantEntity);
    return tenants.save(tenants.create({ code, name }));
  }
}
