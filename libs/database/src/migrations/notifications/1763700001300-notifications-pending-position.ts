import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery reconciler pages through pending deliveries in (created_at, id) order. Without an
 * index in that order each page scanned and sorted every pending delivery, so a pass over a
 * backlog cost the square of its size; with it a page is a range of the index, whatever the backlog.
 */
export class NotificationsPendingPosition1763700001300 implements MigrationInterface {
  name = 'NotificationsPendingPosition1763700001300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX webhook_deliveries_pending_position ON notifications.webhook_deliveries (created_at, id)
        WHERE status = 'PENDING'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notifications.webhook_deliveries_pending_position`);
  }
}
