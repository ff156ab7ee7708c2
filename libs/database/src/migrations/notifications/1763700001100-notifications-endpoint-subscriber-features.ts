import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an endpoint's subscriber may ask for beyond the URL: when the tenant was told the endpoint
 * was failing (so WEBHOOK_ENDPOINT_FAILING and _RECOVERED are each emitted once per streak), a
 * payload filter evaluated at fan-out, and a client certificate for mutual TLS, sealed like the
 * signing secret.
 */
export class NotificationsEndpointSubscriberFeatures1763700001100 implements MigrationInterface {
  name = 'NotificationsEndpointSubscriberFeatures1763700001100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE notifications.webhook_endpoints
         ADD COLUMN failing_notified_at timestamptz,
         ADD COLUMN filter jsonb,
         ADD COLUMN tls_sealed text,
         ADD COLUMN tls_summary jsonb`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE notifications.webhook_endpoints
         DROP COLUMN tls_summary, DROP COLUMN tls_sealed, DROP COLUMN filter, DROP COLUMN failing_notified_at`,
    );
  }
}
