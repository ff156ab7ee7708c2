import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-endpoint delivery rate limit, and the signature schemes an endpoint receives with the
 * ed25519 key pair that signs `v1a` (private key sealed like the HMAC secret, public key in clear
 * since subscribers fetch it). The previous pair signs alongside during a rotation's grace period.
 */
export class NotificationsEndpointPacingAndSigningKeys1763700000920 implements MigrationInterface {
  name = 'NotificationsEndpointPacingAndSigningKeys1763700000920';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE notifications.webhook_endpoints
        ADD COLUMN rate_limit integer CHECK (rate_limit > 0),
        ADD COLUMN signature_schemes text[] NOT NULL DEFAULT '{v1}'
          CHECK (cardinality(signature_schemes) > 0 AND signature_schemes <@ '{v1,v1a}'),
        ADD COLUMN signing_key_sealed text,
        ADD COLUMN public_key text,
        ADD COLUMN previous_signing_key_sealed text,
        ADD COLUMN previous_public_key text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE notifications.webhook_endpoints
        DROP COLUMN previous_public_key,
        DROP COLUMN previous_signing_key_sealed,
        DROP COLUMN public_key,
        DROP COLUMN signing_key_sealed,
        DROP COLUMN signature_schemes,
        DROP COLUMN rate_limit`);
  }
}
