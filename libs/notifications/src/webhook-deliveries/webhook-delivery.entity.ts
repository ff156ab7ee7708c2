import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DeliveryStatus } from '../statuses';

@Entity({ schema: 'notifications', name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @Column({ name: 'notification_type_code', type: 'varchar', length: 100 })
  notificationTypeCode: string;

  @Column({ name: 'event_occurred_at', type: 'timestamptz' })
  eventOccurredAt: Date;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  /** Set for deliveries to an ordered endpoint: the subject, and this delivery's place in its chain. */
  @Column({ name: 'subject_type', type: 'varchar', length: 32, nullable: true })
  subjectType: string | null;

  @Column({ name: 'subject_id', type: 'text', nullable: true })
  subjectId: string | null;

  @Column({
    type: 'bigint',
    nullable: true,
    transformer: { to: (v) => v, from: (v) => (v === null ? null : Number(v)) },
  })
  sequence: number | null;

  @Column({ name: 'attempt_count', type: 'int' })
  attemptCount: number;

  /** Attempts since the last manual retry or replay; the retry schedule counts these. */
  @Column({ name: 'cycle_attempts', type: 'int' })
  cycleAttempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  @Column({ name: 'last_status_code', type: 'int', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
