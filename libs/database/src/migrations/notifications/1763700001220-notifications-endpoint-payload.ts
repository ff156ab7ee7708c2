import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an endpoint's webhooks carry: the whole event (FULL), or only its ids, type, subject, time
 * and changed field names (THIN), for receivers that fetch the current state through the API.
 */
export class NotificationsEndpointPayload1763700001220 implements MigrationInterface {
  name = 'NotificationsEndpointPayload1763700001220';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE notifications.webhook_endpoints
         ADD COLUMN payload varchar(8) NOT NULL DEFAULT 'FULL' CHECK (payload IN ('FULL', 'THIN'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications.webhook_endpoints DROP COLUMN payload`);
  }
}
