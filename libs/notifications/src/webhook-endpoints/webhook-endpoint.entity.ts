import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EndpointOrdering, EndpointStatus } from '../statuses';

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

  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @Column({ name: 'last_success_at', type: 'timestamptz', nullable: true })
  lastSuccessAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
