import { MigrationInterface, QueryRunner } from 'typeorm';

export class NotificationsSchema1763700000600 implements MigrationInterface {
  name = 'NotificationsSchema1763700000600';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS notifications`);
    // One row per tenant, type and channel ever enabled; enabled_at decides which events qualify.
    await q.query(`
      CREATE TABLE notifications.notification_configs (
        tenant_id uuid NOT NULL REFERENCES platform.tenants (id),
        notification_type_code varchar(100) NOT NULL,
        channel_code varchar(32) NOT NULL,
        enabled boolean NOT NULL,
        enabled_at timestamptz,
        disabled_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, notification_type_code, channel_code)
      )`);
    await q.query(`
      CREATE TABLE notifications.webhook_endpoints (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES platform.tenants (id),
        url varchar(2048) NOT NULL,
        description varchar(500),
        -- NULL: every notification type the tenant has enabled
        notification_type_codes text[],
        status varchar(16) NOT NULL CHECK (status IN ('ACTIVE', 'DISABLED')),
        disabled_reason varchar(500),
        disabled_at timestamptz,
        -- signing secrets, sealed with WEBHOOK_SECRET_KEY (AES-256-GCM), never stored in clear
        secret_sealed text NOT NULL,
        previous_secret_sealed text,
        previous_secret_expires_at timestamptz,
        failing_since timestamptz,
        last_success_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX webhook_endpoints_tenant ON notifications.webhook_endpoints (tenant_id, created_at) WHERE deleted_at IS NULL`,
    );
    await q.query(`
      CREATE TABLE notifications.webhook_deliveries (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES platform.tenants (id),
        endpoint_id uuid NOT NULL REFERENCES notifications.webhook_endpoints (id),
        event_id uuid NOT NULL,
        notification_type_code varchar(100) NOT NULL,
        event_occurred_at timestamptz NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
        attempt_count integer NOT NULL DEFAULT 0,
        -- attempts since the last manual retry or replay; the retry schedule counts these
        cycle_attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error varchar(500),
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- fan-out is idempotent: a redelivered domain event creates no second delivery
        UNIQUE (tenant_id, event_id, endpoint_id)
      )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_tenant_list ON notifications.webhook_deliveries (tenant_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_endpoint ON notifications.webhook_deliveries (endpoint_id, status, created_at)`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_pending ON notifications.webhook_deliveries (next_attempt_at) WHERE status = 'PENDING'`,
    );
    await q.query(`
      CREATE TABLE notifications.webhook_delivery_attempts (
        id uuid PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES notifications.webhook_deliveries (id),
        tenant_id uuid NOT NULL,
        attempt_number integer NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        outcome varchar(16) NOT NULL CHECK (outcome IN ('SUCCEEDED', 'FAILED')),
        error varchar(500),
        response_excerpt varchar(1024),
        UNIQUE (delivery_id, attempt_number)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA notifications CASCADE`);
  }
}
