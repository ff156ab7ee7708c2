import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'events', name: 'outbox' })
export class OutboxEventEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 100 })
  type: string;

  @Column({ name: 'tenant_code', type: 'varchar', length: 64 })
  tenantCode: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;

  @Column({ name: 'correlation_id', type: 'varchar', length: 128, nullable: true })
  correlationId: string | null;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt: Date | null;

  @Column({ name: 'publish_attempts', type: 'int', default: 0 })
  publishAttempts: number;

  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true })
  processedAt: Date | null;

  /** W3C trace context of the request that recorded the event (a serialised TraceCarrier); null without tracing. */
  @Column({ name: 'trace_context', type: 'text', nullable: true })
  traceContext: string | null;
}
