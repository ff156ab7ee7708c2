import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal, ProblemException } from '@fincore/platform';
import { DeliveryQueue } from './delivery-queue';
import { decodeCursor, encodeCursor } from './domain/cursor';
import { retryRefusal } from './domain/delivery-rules';
import { WebhookDeliveryAttemptEntity } from './entities/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
import { toAttemptResponse, toDeliveryResponse } from './mapper';
import type { DeliveryListQuery } from './notifications.schemas';

@Injectable()
export class WebhookDeliveriesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly deliveries: DeliveryQueue,
  ) {}

  /** Newest first, keyset-paginated so pages stay stable while deliveries keep arriving. */
  async list(principal: Principal, query: DeliveryListQuery) {
    const qb = this.db
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('d')
      .where('d.tenant_id = :tenantId', { tenantId: principal.tenantId });
    if (query.status) qb.andWhere('d.status = :status', { status: query.status });
    if (query.endpointId) qb.andWhere('d.endpoint_id = :endpointId', { endpointId: query.endpointId });
    if (query.notificationTypeCode)
      qb.andWhere('d.notification_type_code = :type', { type: query.notificationTypeCode });
    if (query.cursor) {
      const position = decodeCursor(query.cursor);
      if (!position)
        throw new ProblemException('invalid_cursor', 400, {}, [
          { field: 'cursor', message: 'unknown cursor' },
        ]);
      qb.andWhere('(d.created_at, d.id) < (:at, :id)', { at: position.createdAt, id: position.id });
    }
    const rows = await qb
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .take(query.limit + 1)
      .getMany();
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toDeliveryResponse),
      nextCursor:
        rows.length > query.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
    };
  }

  async get(principal: Principal, deliveryId: string) {
    const delivery = await this.find(principal, deliveryId);
    const attempts = await this.db.getRepository(WebhookDeliveryAttemptEntity).find({
      where: { deliveryId: delivery.id },
      order: { attemptNumber: 'ASC' },
    });
    return { ...toDeliveryResponse(delivery), attempts: attempts.map(toAttemptResponse) };
  }

  /** Sends a finished delivery again, now, with a fresh retry schedule and the same webhook-id. */
  async retry(principal: Principal, deliveryId: string) {
    const delivery = await this.db.transaction(async (manager) => {
      const found = await manager.getRepository(WebhookDeliveryEntity).findOne({
        where: { id: deliveryId, tenantId: principal.tenantId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!found) throw new ProblemException('webhook_delivery_not_found', 404, { deliveryId });
      const endpoint = await manager
        .getRepository(WebhookEndpointEntity)
        .findOneByOrFail({ id: found.endpointId });
      const refusal = retryRefusal(found, endpoint);
      if (refusal === 'delivery_in_progress')
        throw new ProblemException('webhook_delivery_in_progress', 409, { deliveryId });
      if (refusal === 'endpoint_disabled')
        throw new ProblemException('webhook_endpoint_disabled', 409, { endpointId: endpoint.id });
      Object.assign(found, {
        status: 'PENDING',
        cycleAttempts: 0,
        nextAttemptAt: new Date(),
        updatedAt: new Date(),
      });
      return manager.save(found);
    });
    await this.deliveries.enqueueNow([delivery.id]);
    return toDeliveryResponse(delivery);
  }

  private async find(principal: Principal, deliveryId: string): Promise<WebhookDeliveryEntity> {
    const delivery = await this.db
      .getRepository(WebhookDeliveryEntity)
      .findOneBy({ id: deliveryId, tenantId: principal.tenantId });
    if (!delivery) throw new ProblemException('webhook_delivery_not_found', 404, { deliveryId });
    return delivery;
  }
}
