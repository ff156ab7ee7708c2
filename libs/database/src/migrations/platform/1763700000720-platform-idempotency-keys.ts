import { MigrationInterface, QueryRunner } from 'typeorm';

export class PlatformIdempotencyKeys1763700000720 implements MigrationInterface {
  name = 'PlatformIdempotencyKeys1763700000720';

  async up(q: QueryRunner): Promise<void> {
    // One row per tenant and Idempotency-Key: the claim of the request running under it, then its
    // answer. The key itself is not kept (its SHA-256 is), and the answer's body is sealed with it.
    await q.query(`
      CREATE TABLE platform.idempotency_keys (
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        key_digest char(64) NOT NULL,
        fingerprint char(64) NOT NULL,
        claim_id uuid NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'completed')),
        locked_until timestamptz NOT NULL,
        response_status smallint,
        response_headers jsonb,
        response_body text,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, key_digest),
        CHECK ((status = 'completed') = (response_status IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_at ON platform.idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE platform.idempotency_keys`);
  }
}
