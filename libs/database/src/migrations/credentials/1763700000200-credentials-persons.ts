import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Persons and their current credentials. One row per person: a person has exactly one set of
 * credentials at a time, and the row lock on it serialises invalidation, authentication re-hash
 * and the setting of new credentials.
 */
export class CredentialsPersons1763700000200 implements MigrationInterface {
  name = 'CredentialsPersons1763700000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS credentials`);
    await q.query(`
      CREATE TABLE credentials.persons (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        person_id varchar(64) NOT NULL,
        first_name varchar(100),
        last_name varchar(100),
        email varchar(254),
        phone varchar(16),
        username varchar(256) NOT NULL,
        -- lookup key: usernames are unique per tenant regardless of case
        username_key varchar(256) NOT NULL,
        password_hash text NOT NULL,
        credentials_status varchar(16) NOT NULL DEFAULT 'ACTIVE' CHECK (credentials_status IN ('ACTIVE', 'INVALIDATED')),
        credentials_invalidated_at timestamptz,
        credentials_updated_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT persons_tenant_person_id UNIQUE (tenant_id, person_id),
        CONSTRAINT persons_tenant_username UNIQUE (tenant_id, username_key),
        -- an invalidation always records when it happened, and only an invalidation does
        CONSTRAINT persons_invalidated_at CHECK ((credentials_status = 'INVALIDATED') = (credentials_invalidated_at IS NOT NULL))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credentials.persons`);
  }
}
