import { MigrationInterface, QueryRunner } from 'typeorm';

export class PlatformTenantsTokens1763700000000 implements MigrationInterface {
  name = 'PlatformTenantsTokens1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS platform`);
    await q.query(`
      CREATE TABLE platform.tenants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code varchar(64) NOT NULL UNIQUE CHECK (code ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$'),
        name varchar(200) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE platform.api_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        token_hash char(64) NOT NULL UNIQUE,
        token_prefix varchar(16) NOT NULL,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_tokens_tenant ON platform.api_tokens (tenant_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE platform.api_tokens`);
    await q.query(`DROP TABLE platform.tenants`);
  }
}
