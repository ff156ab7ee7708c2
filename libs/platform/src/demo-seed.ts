import type { EntityManager } from 'typeorm';
import type { TenantEntity } from './auth/tenant.entity';

export const DEMO_TENANT_CODE = 'DEMO';

/**
 * Demo data of one bounded context, run by `npm run cli -- demo:seed` (and `npm start` on an empty
 * database). Must be idempotent: create what is missing, and describe what exists.
 */
export interface DemoSeed {
  context: string;
  /** TypeORM entities the seed uses through the manager. */
  entities: Function[];
  seed(manager: EntityManager, tenant: TenantEntity): Promise<Record<string, unknown>>;
}
