import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The deliveries' part of erasing a person, run in the erasing transaction of the credentials API:
 * the receivers' answers to webhooks about the person may echo the person's data back.
 */
@Injectable()
export class WebhookDeliveryErasureRepository {
  /**
   * Marks the tenant's deliveries of the given events as about an erased person, then removes the
   * response excerpts of all their attempts (the deliveries found through the unique (tenant_id,
   * event_id, endpoint_id)); answers how many attempts lost theirs. Two statements on purpose: the
   * mark waits for the row lock of an attempt being recorded, and the second statement, with a
   * snapshot taken after it, sees that attempt; one recorded after the mark stores no excerpt (see
   * WebhookDeliveryAttemptRepository).
   */
  async eraseResponsesToEvents(
    manager: EntityManager,
    tenantId: string,
    eventIds: string[],
  ): Promise<number> {
    if (!eventIds.length) return 0;
    await manager.query(
      `UPDATE notifications.webhook_deliveries SET subject_erased_at = now()
        WHERE event_id = ANY($2::uuid[]) AND tenant_id = $1 AND subject_erased_at IS NULL`,
      [tenantId, eventIds],
    );
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
