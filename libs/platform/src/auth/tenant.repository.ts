import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { TenantEntity } from './tenant.entity';

/** The one owner of `platform.tenants`. */
@Injectable()
export class TenantRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  private get tenants() {
    return this.manager.getRepository(TenantEntity);
  }

  findByCode(code: string): Promise<TenantEntity | null> {
    return this.tenants.findOneBy({ code });
  }

  existsByCode(code: string): Promise<boolean> {
    return this.tenants.existsBy({ code });
  }

  /** True before the first tenant exists: a fresh installation. */
  async isEmpty(): Promise<boolean> {
    return !(await this.tenants.exists());
  }

  create(code: string, name: string): Promise<TenantEntity> {
    return this.tenants.save(this.tenants.create({ code, name }));
  }
}
