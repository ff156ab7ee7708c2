import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { updatedRows } from '../sql-results';
import type { EndpointStatus } from '../statuses';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** What recording a failure leaves on the endpoint row. */
export interface EndpointFailureStreak {
  status: EndpointStatus;
  failingSince: Date;
  /** When the tenant was told of this streak (WEBHOOK_ENDPOINT_FAILING); null: not yet. */
  failingNotifiedAt: Date | null;
}

/**
 * `notifications.webhook_endpoints`. Methods taking an EntityManager run inside the caller's
 * transaction (the row locks they take are held until it ends); the others run on their own.
 * Lock order across the context: an endpoint row before any of its deliveries' rows. Statuses
 * in SQL are the values of EndpointStatus and DeliveryStatus (the tables' CHECK constraints).
 */
@Injectable()
export class WebhookEndpointRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Serialises endpoint creations of one tenant (transaction-scoped advisory lock), so the limit holds. */
  async lockTenantForEndpointCreation(manager: EntityManager, tenantId: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('webhook-endpoints:' || $1))`, [tenantId]);
  }

  /** Endpoints of the tenant that are not deleted (disabled ones count). */
  countOfTenant(manager: EntityManager, tenantId: string): Promise<number> {
    return manager.count(WebhookEndpointEntity, { where: { tenantId, deletedAt: IsNull() } });
  }

  insert(manager: EntityManager, endpoint: WebhookEndpointEntity): Promise<WebhookEndpointEntity> {
    return manager.save(manager.create(WebhookEndpointEntity, endpoint));
  }

  /** Not deleted, oldest first. */
  listOfTenant(tenantId: string): Promise<WebhookEndpointEntity[]> {
    return this.db.getRepository(WebhookEndpointEntity).find({
      where: { tenantId, deletedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** The tenant's endpoint unless deleted; null for another tenant's. */
  findOfTenant(tenantId: string, endpointId: string): Promise<WebhookEndpointEntity | null> {
    return this.db.getRepository(WebhookEndpointEntity).findOne({
      where: { id: endpointId, tenantId, deletedAt: IsNull() },
    });
  }

  /** As findOfTenant, and locks the row (FOR UPDATE) until the transaction ends. */
  lockOfTenant(
    manager: EntityManager,
    tenantId: string,
    endpointId: string,
  ): Promise<WebhookEndpointEntity | null> {
    return manager.getRepository(WebhookEndpointEntity).findOne({
      where: { id: endpointId, tenantId, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Any endpoint, deleted or not, without a lock; throws when missing. */
  getById(manager: EntityManager, endpointId: string): Promise<WebhookEndpointEntity> {
    return manager.getRepository(WebhookEndpointEntity).findOneByOrFail({ id: endpointId });
  }

  save(manager: EntityManager, endpoint: WebhookEndpointEntity): Promise<WebhookEndpointEntity> {
    return manager.save(endpoint);
  }

  async update(
    manager: EntityManager,
    endpointId: string,
    changes: Partial<Omit<WebhookEndpointEntity, 'filter' | 'tlsSummary'>>,
  ): Promise<void> {
    await manager.update(WebhookEndpointEntity, endpointId, changes);
  }

  /**
   * Locks the endpoint row before a failed attempt of one of its deliveries is recorded. NO KEY: the
   * fan-outs' foreign-key checks of new deliveries to it need not wait.
   */
  async lockForFailedAttempt(manager: EntityManager, endpointId: string): Promise<void> {
    await manager.query(`SELECT 1 FROM notifications.webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE`, [
      endpointId,
    ]);
  }

  /** Starts the failure streak unless one is running; undefined when the endpoint is gone. */
  async markFailing(
    manager: EntityManager,
    endpointId: string,
    now: Date,
  ): Promise<EndpointFailureStreak | undefined> {
    const [row] = updatedRows<{
      status: EndpointStatus;
      failing_since: Date;
      failing_notified_at: Date | null;
    }>(
      await manager.query(
        `UPDATE notifications.webhook_endpoints SET failing_since = COALESCE(failing_since, $2) WHERE id = $1
         RETURNING status, failing_since, failing_notified_at`,
        [endpointId, now],
      ),
    );
    return (
      row && {
        status: row.status,
        failingSince: row.failing_since,
        failingNotifiedAt: row.failing_notified_at,
      }
    );
  }

  /**
   * Records that the tenant is told the endpoint is failing; false when it was told already. In the
   * transaction that emits WEBHOOK_ENDPOINT_FAILING, so the event is written once per streak.
   */
  async markFailingNotified(manager: EntityManager, endpointId: string, now: Date): Promise<boolean> {
    const rows = updatedRows(
      await manager.query(
        `UPDATE notifications.webhook_endpoints SET failing_notified_at = $2
          WHERE id = $1 AND failing_notified_at IS NULL RETURNING id`,
        [endpointId, now],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Forgets that the tenant was told the endpoint is failing, after a success; answers when it was
   * told, or undefined when it was not (or another success got there first). In the transaction
   * that emits WEBHOOK_ENDPOINT_RECOVERED, so the event is written once.
   */
  async clearFailingNotified(manager: EntityManager, endpointId: string): Promise<Date | undefined> {
    const [row] = updatedRows<{ notified_at: Date }>(
      await manager.query(
        `UPDATE notifications.webhook_endpoints e SET failing_notified_at = NULL
           FROM (SELECT id, failing_notified_at FROM notifications.webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE) old
          WHERE e.id = old.id AND old.failing_notified_at IS NOT NULL
         RETURNING old.failing_notified_at AS notified_at`,
        [endpointId],
      ),
    );
    return row?.notified_at;
  }

  /**
   * Holds the endpoint back for `pauseMs` from now on the database's clock, unless a longer pause
   * runs: every attempt reads it with the endpoint row.
   */
  async pauseFor(endpointId: string, pauseMs: number): Promise<void> {
    await this.db.query(
      `UPDATE notifications.webhook_endpoints
          SET paused_until = GREATEST(paused_until, clock_timestamp() + $2 * interval '1 millisecond')
        WHERE id = $1`,
      [endpointId, Math.ceil(pauseMs)],
    );
  }

  /** Ends the endpoint's pause, if one runs. */
  async liftPause(endpointId: string): Promise<void> {
    await this.db.query(
      `UPDATE notifications.webhook_endpoints SET paused_until = NULL WHERE id = $1 AND paused_until IS NOT NULL`,
      [endpointId],
    );
  }

  /** Disables the endpoint with its reason, unless something disabled it already; true when it did. */
  async disableIfActive(
    manager: EntityManager,
    endpointId: string,
    reason: string,
    now: Date,
  ): Promise<boolean> {
    const rows = updatedRows(
      await manager.query(
        `UPDATE notifications.webhook_endpoints SET status = 'DISABLED', disabled_reason = $2, disabled_at = $3, updated_at = $3
          WHERE id = $1 AND status = 'ACTIVE' RETURNING id`,
        [endpointId, reason, now],
      ),
    );
    return rows.length > 0;
  }
}
