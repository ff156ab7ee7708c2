import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EndpointOrdering, EndpointPayload, EndpointStatus } from '../statuses';

@Entity({ schema: 'notifications', name: 'webhook_endpoints' })
export class WebhookEndpointEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  /** null: every notification type the tenant enables. */
  @Column({ name: 'notification_type_codes', type: 'text', array: true, nullable: true })
  notificationTypeCodes: string[] | null;

  @Column({ type: 'varchar', length: 16 })
  status: EndpointStatus;

  @Column({ type: 'varchar', length: 16, default: 'NONE' })
  ordering: EndpointOrdering;

  @Column({ type: 'varchar', length: 8, default: 'FULL' })
  payload: EndpointPayload;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 500, nullable: true })
  disabledReason: string | null;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  /** Signing secrets are stored sealed (SecretBox), never in clear. */
  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  @Column({ name: 'previous_secret_sealed', type: 'text', nullable: true })
  previousSecretSealed: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  /** Deliveries per second at most, across every notifier; null: unlimited. */
  @Column({ name: 'rate_limit', type: 'integer', nullable: true })
  rateLimit: number | null;

  /** Standard Webhooks signature versions sent: `v1` (HMAC), `v1a` (ed25519), or both. */
  @Column({ name: 'signature_schemes', type: 'text', array: true, default: () => `'{v1}'` })
  signatureSchemes: string[];

  /** ed25519 private key (whsk_…), sealed like the secret; null until the endpoint has a key pair. */
  @Column({ name: 'signing_key_sealed', type: 'text', nullable: true })
  signingKeySealed: string | null;

  /** ed25519 public key (whpk_…) that subscribers verify `v1a` with; public by design. */
  @Column({ name: 'public_key', type: 'text', nullable: true })
  publicKey: string | null;

  /** The key pair before the last rotation; signs too until previousSecretExpiresAt. */
  @Column({ name: 'previous_signing_key_sealed', type: 'text', nullable: true })
  previousSigningKeySealed: string | null;

  @Column({ name: 'previous_public_key', type: 'text', nullable: true })
  previousPublicKey: string | null;

  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  /** When the tenant was told this streak had lasted half the disable period; null: not told. */
  @Column({ name: 'failing_notified_at', type: 'timestamptz', nullable: true })
  failingNotifiedAt: Date | null;

  /** Which events the endpoint takes among those of its types (EventFilter); null: all of them. */
  @Column({ type: 'jsonb', nullable: true })
  filter: Record<string, unknown> | null;

  /** Client certificate, key and CAs for mutual TLS, sealed (SecretBox) like the secret; null: none. */
  @Column({ name: 'tls_sealed', type: 'text', nullable: true })
  tlsSealed: string | null;

  /** What may be shown of the client certificate (subject, fingerprint, expiry); null without one. */
  @Column({ name: 'tls_summary', type: 'jsonb', nullable: true })
  tlsSummary: Record<string, unknown> | null;

  @Column({ name: 'last_success_at', type: 'timestamptz', nullable: true })
  lastSuccessAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
