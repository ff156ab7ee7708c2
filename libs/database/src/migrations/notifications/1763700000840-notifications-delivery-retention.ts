import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention deletes finished deliveries by the time they last changed, and keeps an outbox event
 * while a delivery refers to it (a lookup by event id, which the tenant-first unique key cannot serve).
 */
export class NotificationsDeliveryRetention1763700000840 implements MigrationInterface {
  name = 'NotificationsDeliveryRetention1763700000840';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX webhook_deliveries_finished ON notifications.webhook_deliveries (updated_at) WHERE status <> 'PENDING'`,
    );
    await q.query(`CREATE INDEX webhook_deliveries_event ON notifications.webhook_deliveries (event_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notifications.webhook_deliveries_event`);
    await q.query(`DROP INDEX notifications.webhook_deliveries_finished`);
  }
}
