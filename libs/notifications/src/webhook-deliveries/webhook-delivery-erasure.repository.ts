import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The deliveries' part of erasing a person, run in the erasing transaction of the credentials API:
 * the receivers' answers to webhooks about the person may echo the person's data back.
 */
@Injectable()
export class WebhookDeliveryErasureRepository {
  /**
   * Removes the response excerpts of every attempt of the tenant's deliveries of the given events
   * (found through the deliveries' event index); answers how many attempts lost theirs.
   */
  async eraseResponsesToEvents(
    manager: EntityManager,
    tenantId: string,
    eventIds: string[],
  ): Promise<number> {
    if (!eventIds.length) return 0;
    const [, affected]: [unknown, number] = await manager.query(
      `UPDATE notifications.webhook_delivery_attempts a SET response_excerpt = NULL
         FROM notifications.webhook_deliveries d
        WHERE d.event_id = ANY($2::uuid[]) AND d.tenant_id = $1
          AND a.delivery_id = d.id AND a.response_excerpt IS NOT NULL`,
      [tenantId, eventIds],
    );
    return affected;
  }
}
