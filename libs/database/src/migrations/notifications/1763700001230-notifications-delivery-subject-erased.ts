import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the person a delivery is about was erased. An attempt recorded afterwards keeps no response
 * excerpt: its request left before the erasure, with the old body, and the receiver may echo it.
 */
export class NotificationsDeliverySubjectErased1763700001230 implements MigrationInterface {
  name = 'NotificationsDeliverySubjectErased1763700001230';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications.webhook_deliveries ADD COLUMN subject_erased_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications.webhook_deliveries DROP COLUMN subject_erased_at`);
  }
}
