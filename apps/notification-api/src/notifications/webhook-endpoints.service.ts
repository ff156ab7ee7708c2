import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { APP_CONFIG, AppConfig, Principal, ProblemException } from '@fincore/platform';
import {
  generateSecret,
  hostOf,
  parseWebhookUrl,
  resolveSafely,
  SecretBox,
  UnsafeDestinationError,
} from '@fincore/webhooks';
import { DeliveryQueue } from './delivery-queue';
import { MAX_ENDPOINTS_PER_TENANT, previousSecretExpiry } from './domain/delivery-rules';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
import { toEndpointResponse } from './mapper';
import type { CreateWebhookEndpointRequest, ReplayRequest } from './notifications.schemas';

/** UPDATE … RETURNING answers [rows, count] through TypeORM's postgres driver. */
export const updatedRows = <T>(result: unknown): T[] =>
  Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : [];

@Injectable()
export class WebhookEndpointsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: SecretBox,
    private readonly deliveries: DeliveryQueue,
  ) {}

  async create(principal: Principal, request: CreateWebhookEndpointRequest) {
    const url = await this.checkDestination(request.url);
    const secret = generateSecret();
    const now = new Date();
    const endpoint = await this.db.transaction(async (manager) => {
      // Serialises creations of one tenant so the limit holds under concurrency.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('webhook-endpoints:' || $1))`, [
        principal.tenantId,
      ]);
      const count = await manager.count(WebhookEndpointEntity, {
        where: { tenantId: principal.tenantId, deletedAt: IsNull() },
      });
      if (count >= MAX_ENDPOINTS_PER_TENANT) {
        throw new ProblemException('webhook_endpoint_limit_reached', 422, { max: MAX_ENDPOINTS_PER_TENANT });
      }
      const entity = manager.create(WebhookEndpointEntity, {
        id: randomUUID(),
        tenantId: principal.tenantId,
        url: url.toString(),
        description: request.description || null,
        notificationTypeCodes: request.notificationTypeCodes
          ? [...new Set(request.notificationTypeCodes)]
          : null,
        status: 'ACTIVE',
        disabledReason: null,
        disabledAt: null,
        secretSealed: this.secrets.seal(secret),
        previousSecretSealed: null,
        previousSecretExpiresAt: null,
        failingSince: null,
        lastSuccessAt: null,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      return manager.save(entity);
    });
    return { ...toEndpointResponse(endpoint), secret };
  }

  async list(principal: Principal) {
    const rows = await this.db.getRepository(WebhookEndpointEntity).find({
      where: { tenantId: principal.tenantId, deletedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return { items: rows.map(toEndpointResponse) };
  }

  async get(principal: Principal, endpointId: string) {
    return toEndpointResponse(await this.find(this.db.manager, principal, endpointId));
  }

  /** Soft delete: the delivery history stays readable; pending deliveries to it end as failed. */
  async delete(principal: Principal, endpointId: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const endpoint = await this.find(manager, principal, endpointId, true);
      const now = new Date();
      await manager.update(WebhookEndpointEntity, endpoint.id, {
        deletedAt: now,
        status: 'DISABLED',
        disabledReason: endpoint.disabledReason ?? 'deleted by the tenant',
        disabledAt: endpoint.disabledAt ?? now,
        updatedAt: now,
      });
      await this.failPending(manager, endpoint.id, 'endpoint deleted');
    });
  }

  async disable(principal: Principal, endpointId: string) {
    return this.db.transaction(async (manager) => {
      const endpoint = await this.find(manager, principal, endpointId, true);
      if (endpoint.status === 'DISABLED') return toEndpointResponse(endpoint);
      const now = new Date();
      Object.assign(endpoint, {
        status: 'DISABLED',
        disabledReason: 'disabled by the tenant',
        disabledAt: now,
        updatedAt: now,
      });
      await manager.save(endpoint);
      await this.failPending(manager, endpoint.id, 'endpoint disabled by the tenant');
      return toEndpointResponse(endpoint);
    });
  }

  /** Re-enabling also forgets the failure streak, so the automatic disabling starts counting afresh. */
  async enable(principal: Principal, endpointId: string) {
    return this.db.transaction(async (manager) => {
      const endpoint = await this.find(manager, principal, endpointId, true);
      if (endpoint.status === 'ACTIVE') return toEndpointResponse(endpoint);
      Object.assign(endpoint, {
        status: 'ACTIVE',
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
        updatedAt: new Date(),
      });
      await manager.save(endpoint);
      return toEndpointResponse(endpoint);
    });
  }

  /** The old secret keeps signing (a second signature) for the grace period, so receivers switch without a gap. */
  async rotateSecret(principal: Principal, endpointId: string) {
    const secret = generateSecret();
    return this.db.transaction(async (manager) => {
      const endpoint = await this.find(manager, principal, endpointId, true);
      const now = new Date();
      const expiresAt = previousSecretExpiry(now, this.config.WEBHOOK_SECRET_GRACE_HOURS);
      Object.assign(endpoint, {
        previousSecretSealed: expiresAt ? endpoint.secretSealed : null,
        previousSecretExpiresAt: expiresAt,
        secretSealed: this.secrets.seal(secret),
        updatedAt: now,
      });
      await manager.save(endpoint);
      return { id: endpoint.id, secret, previousSecretExpiresAt: expiresAt ? expiresAt.toISOString() : null };
    });
  }

  /** Puts every failed delivery of the endpoint in [since, until) back on the queue with a fresh retry schedule. */
  async replay(principal: Principal, endpointId: string, request: ReplayRequest) {
    const until = request.until ? new Date(request.until) : new Date();
    const since = new Date(request.since);
    if (since >= until) {
      throw new ProblemException('validation_failed', 400, {}, [
        { field: 'since', message: 'must be before until' },
      ]);
    }
    const ids = await this.db.transaction(async (manager) => {
      const endpoint = await this.find(manager, principal, endpointId, true);
      if (endpoint.status !== 'ACTIVE')
        throw new ProblemException('webhook_endpoint_disabled', 409, { endpointId });
      const result = await manager.query(
        `UPDATE notifications.webhook_deliveries
            SET status = 'PENDING', cycle_attempts = 0, next_attempt_at = now(), updated_at = now()
          WHERE tenant_id = $1 AND endpoint_id = $2 AND status = 'FAILED' AND created_at >= $3 AND created_at < $4
          RETURNING id`,
        [principal.tenantId, endpoint.id, since, until],
      );
      return updatedRows<{ id: string }>(result).map((r) => r.id);
    });
    await this.deliveries.enqueueNow(ids);
    return { endpointId, replayed: ids.length };
  }

  private async find(
    manager: EntityManager,
    principal: Principal,
    endpointId: string,
    lock = false,
  ): Promise<WebhookEndpointEntity> {
    const endpoint = await manager.getRepository(WebhookEndpointEntity).findOne({
      where: { id: endpointId, tenantId: principal.tenantId, deletedAt: IsNull() },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!endpoint) throw new ProblemException('webhook_endpoint_not_found', 404, { endpointId });
    return endpoint;
  }

  private async failPending(manager: EntityManager, endpointId: string, reason: string): Promise<void> {
    await manager.query(
      `UPDATE notifications.webhook_deliveries
          SET status = 'FAILED', next_attempt_at = NULL, last_error = $2, updated_at = now()
        WHERE endpoint_id = $1 AND status = 'PENDING'`,
      [endpointId, reason],
    );
  }

  /** SSRF guard at registration; the notifier checks again at every delivery, as DNS can change. */
  private async checkDestination(raw: string): Promise<URL> {
    const policy = { allowPrivateNetworks: this.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS };
    try {
      const url = parseWebhookUrl(raw, policy);
      await resolveSafely(hostOf(url), policy);
      return url;
    } catch (error) {
      if (!(error instanceof UnsafeDestinationError)) throw error;
      throw new ProblemException('webhook_url_refused', 422, { reason: error.message }, [
        { field: 'url', message: error.message, code: error.reason },
      ]);
    }
  }
}
