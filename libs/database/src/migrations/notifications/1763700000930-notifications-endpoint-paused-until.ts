import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Until when a receiver's Retry-After holds an endpoint back, next to the row every attempt reads
 * already: an endpoint without a rate limit is paced with no round trip of its own.
 */
export class NotificationsEndpointPausedUntil1763700000930 implements MigrationInterface {
  name = 'NotificationsEndpointPausedUntil1763700000930';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications.webhook_endpoints ADD COLUMN paused_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications.webhook_endpoints DROP COLUMN paused_until`);
  }
}
