import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AttemptOutcome } from '../statuses';

@Entity({ schema: 'notifications', name: 'webhook_delivery_attempts' })
export class WebhookDeliveryAttemptEntity {
  @Column({ type: 'uuid' })
  id: string;

  /** With attemptNumber the primary key: attempts are read and deleted by their delivery. */
  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ name: 'attempt_number', type: 'int' })
  attemptNumber: number;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs: number;

  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode: number | null;

  @Column({ type: 'varchar', length: 16 })
  outcome: AttemptOutcome;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ name: 'response_excerpt', type: 'varchar', length: 1024, nullable: true })
  responseExcerpt: string | null;

  /** The headers the attempt sent (signature included, no secret); null where none went out. */
  @Column({ name: 'request_headers', type: 'jsonb', nullable: true })
  requestHeaders: Record<string, string> | null;
}
