import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The headers an attempt sent (webhook-id, -timestamp, -signature, content type, user agent):
 * what a subscriber compares with what its receiver logged. They hold no secret and no personal
 * data; the body is the event's, kept once in the outbox.
 */
export class NotificationsAttemptRequestHeaders1763700001310 implements MigrationInterface {
  name = 'NotificationsAttemptRequestHeaders1763700001310';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications.webhook_delivery_attempts ADD COLUMN request_headers jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications.webhook_delivery_attempts DROP COLUMN request_headers`);
  }
}
