import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every webhook inserts a delivery and an attempt and updates the delivery once, each time writing
 * an entry into every index of the row. Two indexes no statement needs go:
 * - the one on a delivery's event_id: each lookup by event knows the tenant (retention and the
 *   fan-out through the event's tenant code), so the unique (tenant_id, event_id, endpoint_id) serves it;
 * - the attempt's primary key on its id, which nothing looks up: (delivery_id, attempt_number), by
 *   which attempts are read and deleted, becomes the primary key instead.
 */
export class NotificationsFewerDeliveryIndexes1763700001320 implements MigrationInterface {
  name = 'NotificationsFewerDeliveryIndexes1763700001320';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notifications.webhook_deliveries_event`);
    await q.query(
      `ALTER TABLE notifications.webhook_delivery_attempts
         DROP CONSTRAINT webhook_delivery_attempts_pkey,
         DROP CONSTRAINT webhook_delivery_attempts_delivery_id_attempt_number_key,
         ADD CONSTRAINT webhook_delivery_attempts_pkey PRIMARY KEY (delivery_id, attempt_number)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE notifications.webhook_delivery_attempts
         DROP CONSTRAINT webhook_delivery_attempts_pkey,
         ADD CONSTRAINT webhook_delivery_attempts_pkey PRIMARY KEY (id),
         ADD CONSTRAINT webhook_delivery_attempts_delivery_id_attempt_number_key UNIQUE (delivery_id, attempt_number)`,
    );
    await q.query(`CREATE INDEX webhook_deliveries_event ON notifications.webhook_deliveries (event_id)`);
  }
}
