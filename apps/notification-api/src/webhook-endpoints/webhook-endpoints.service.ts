import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '@fincore/events';
import {
  EndpointOrdering,
  EndpointPayload,
  EndpointPacingState,
  EndpointStatus,
  EventFilter,
  receivesDeliveries,
  WebhookDeliveryAdminRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import { APP_CONFIG, AppConfig, Principal, validationFailed } from '@fincore/platform';
import {
  generateSecret,
  generateSigningKeyPair,
  hostOf,
  parseWebhookUrl,
  resolveSafely,
  SecretBox,
  UnsafeDestinationError,
} from '@fincore/webhooks';
import {
  webhookEndpointDisabled,
  webhookEndpointLimitReached,
  webhookEndpointNotFound,
  webhookUrlRefused,
} from '../common/notification.problems';
import { DeliveryQueue } from '../webhook-deliveries/delivery-queue';
import { needsSigningKeyPair, previousSecretExpiry, signatureSchemesAfter } from './domain/endpoint-rules';
import {
  mapPublicKey,
  mapRotatedSecret,
  mapWebhookEndpoint,
  mapWebhookEndpointWithSecret,
} from './webhook-endpoint.mapper';
import type {
  CreateWebhookEndpointRequest,
  ReplayRequest,
  UpdateWebhookEndpointRequest,
} from './webhook-endpoint.schemas';

@Injectable()
export class WebhookEndpointsService {
  private readonly logger = new Logger(WebhookEndpointsService.name);

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryAdminRepository,
    private readonly unitOfWork: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: SecretBox,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly pacing: EndpointPacingState,
  ) {}

  async create(principal: Principal, request: CreateWebhookEndpointRequest) {
    const url = await this.checkDestination(request.url);
    const secret = generateSecret();
    // Every new endpoint gets its key pair, so turning v1a on later needs nothing more.
    const keyPair = generateSigningKeyPair();
    const now = new Date();
    const endpoint = await this.unitOfWork.run(async ({ manager }) => {
      await this.endpoints.lockTenantForEndpointCreation(manager, principal.tenantId);
      const max = this.config.WEBHOOK_MAX_ENDPOINTS_PER_TENANT;
      if ((await this.endpoints.countOfTenant(manager, principal.tenantId)) >= max) {
        throw webhookEndpointLimitReached(max);
      }
      return this.endpoints.insert(manager, {
        id: randomUUID(),
        tenantId: principal.tenantId,
        url: url.toString(),
        description: request.description || null,
        notificationTypeCodes: request.notificationTypeCodes
          ? [...new Set(request.notificationTypeCodes)]
          : null,
        status: EndpointStatus.Active,
        ordering: request.ordering ?? EndpointOrdering.None,
        payload: request.payload ?? EndpointPayload.Full,
        disabledReason: null,
        disabledAt: null,
        secretSealed: this.secrets.seal(secret),
        previousSecretSealed: null,
        previousSecretExpiresAt: null,
        rateLimit: request.rateLimit ?? null,
        signatureSchemes: signatureSchemesAfter(['v1'], request.signatureSchemes),
        signingKeySealed: this.secrets.seal(keyPair.signingKey),
        publicKey: keyPair.publicKey,
        previousSigningKeySealed: null,
        previousPublicKey: null,
        failingSince: null,
        failingNotifiedAt: null,
        filter: (request.filter ?? null) as EventFilter | null,
        ...this.sealedTls(request.tls ?? null),
        lastSuccessAt: null,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
    });
    return mapWebhookEndpointWithSecret(endpoint, secret);
  }

  async list(principal: Principal) {
    const endpoints = await this.endpoints.listOfTenant(principal.tenantId);
    return { items: endpoints.map(mapWebhookEndpoint) };
  }

  async get(principal: Principal, endpointId: string) {
    const endpoint = await this.endpoints.findOfTenant(principal.tenantId, endpointId);
    if (!endpoint) throw webhookEndpointNotFound(endpointId);
    return mapWebhookEndpoint(endpoint);
  }

  /** The ed25519 public key subscribers verify v1a with, and the previous one while it still signs. */
  async publicKey(principal: Principal, endpointId: string) {
    const endpoint = await this.endpoints.findOfTenant(principal.tenantId, endpointId);
    if (!endpoint) throw webhookEndpointNotFound(endpointId);
    return mapPublicKey(endpoint, new Date());
  }

  /**
   * Changes how the endpoint receives events. The rate limit and signature schemes are read at each
   * attempt, so they apply to queued deliveries too; ordering applies to deliveries created from now
   * on (those of an ordered chain still go one at a time, the others in parallel).
   */
  async update(principal: Principal, endpointId: string, request: UpdateWebhookEndpointRequest) {
    return this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.lock(manager, principal, endpointId);
      const signatureSchemes = signatureSchemesAfter(endpoint.signatureSchemes, request.signatureSchemes);
      if (needsSigningKeyPair(signatureSchemes, !!endpoint.signingKeySealed)) {
        const keyPair = generateSigningKeyPair();
        Object.assign(endpoint, {
          signingKeySealed: this.secrets.seal(keyPair.signingKey),
          publicKey: keyPair.publicKey,
        });
      }
      Object.assign(endpoint, {
        ordering: request.ordering ?? endpoint.ordering,
        payload: request.payload ?? endpoint.payload,
        rateLimit: request.rateLimit === undefined ? endpoint.rateLimit : request.rateLimit,
        filter: request.filter === undefined ? endpoint.filter : (request.filter as EventFilter | null),
        ...(request.tls !== undefined && this.sealedTls(request.tls)),
        signatureSchemes,
        updatedAt: new Date(),
      });
      await this.endpoints.save(manager, endpoint);
      return mapWebhookEndpoint(endpoint);
    });
  }

  /** Soft delete: the delivery history stays readable; pending deliveries to it end as failed. */
  async delete(principal: Principal, endpointId: string): Promise<void> {
    await this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.lock(manager, principal, endpointId);
      const now = new Date();
      await this.endpoints.update(manager, endpoint.id, {
        deletedAt: now,
        status: EndpointStatus.Disabled,
        disabledReason: endpoint.disabledReason ?? 'deleted by the tenant',
        disabledAt: endpoint.disabledAt ?? now,
        updatedAt: now,
      });
      await this.deliveries.failPendingOfEndpoint(manager, endpoint.id, 'endpoint deleted');
    });
  }

  async disable(principal: Principal, endpointId: string) {
    return this.unitOfWork.run(async ({ manager, emit }) => {
      const endpoint = await this.lock(manager, principal, endpointId);
      if (endpoint.status === EndpointStatus.Disabled) return mapWebhookEndpoint(endpoint);
      const now = new Date();
      Object.assign(endpoint, {
        status: EndpointStatus.Disabled,
        disabledReason: 'disabled by the tenant',
        disabledAt: now,
        updatedAt: now,
      });
      await this.endpoints.save(manager, endpoint);
      await this.deliveries.failPendingOfEndpoint(manager, endpoint.id, 'endpoint disabled by the tenant');
      await emit('WEBHOOK_ENDPOINT_DISABLED', principal.tenantCode, {
        endpointId: endpoint.id,
        url: endpoint.url,
        reason: 'disabled by the tenant',
        disabledAt: now.toISOString(),
      });
      return mapWebhookEndpoint(endpoint);
    });
  }

  /**
   * Re-enabling also forgets the failure streak, so the automatic disabling starts counting afresh,
   * and any Retry-After pause the receiver asked for: the tenant says it is ready again.
   */
  async enable(principal: Principal, endpointId: string) {
    const { endpoint, enabled } = await this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.lock(manager, principal, endpointId);
      if (endpoint.status === EndpointStatus.Active) return { endpoint, enabled: false };
      Object.assign(endpoint, {
        status: EndpointStatus.Active,
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
        failingNotifiedAt: null,
        updatedAt: new Date(),
      });
      await this.endpoints.save(manager, endpoint);
      return { endpoint, enabled: true };
    });
    if (enabled) {
      await this.pacing.reset(endpoint.id).catch((error: Error) => {
        // The pause then runs out by itself: it is bounded by the receiver's Retry-After.
        this.logger.warn(`Could not lift the pause of endpoint ${endpoint.id}: ${error.message}`);
      });
    }
    return mapWebhookEndpoint(endpoint);
  }

  /**
   * The old secret keeps signing (a second signature) for the grace period, so receivers switch
   * without a gap. The ed25519 key pair, where there is one, rotates with it the same way.
   */
  async rotateSecret(principal: Principal, endpointId: string) {
    const secret = generateSecret();
    const keyPair = generateSigningKeyPair();
    return this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.lock(manager, principal, endpointId);
      const now = new Date();
      const expiresAt = previousSecretExpiry(now, this.config.WEBHOOK_SECRET_GRACE_HOURS);
      Object.assign(endpoint, {
        previousSecretSealed: expiresAt ? endpoint.secretSealed : null,
        previousSecretExpiresAt: expiresAt,
        secretSealed: this.secrets.seal(secret),
        updatedAt: now,
      });
      if (endpoint.signingKeySealed) {
        Object.assign(endpoint, {
          previousSigningKeySealed: expiresAt ? endpoint.signingKeySealed : null,
          previousPublicKey: expiresAt ? endpoint.publicKey : null,
          signingKeySealed: this.secrets.seal(keyPair.signingKey),
          publicKey: keyPair.publicKey,
        });
      }
      await this.endpoints.save(manager, endpoint);
      return mapRotatedSecret(endpoint, secret, expiresAt);
    });
  }

  /** Puts every failed delivery of the endpoint in [since, until) back on the queue with a fresh retry schedule. */
  async replay(principal: Principal, endpointId: string, request: ReplayRequest) {
    const until = request.until ? new Date(request.until) : new Date();
    const since = new Date(request.since);
    if (since >= until) throw validationFailed([{ field: 'since', message: 'must be before until' }]);
    const ids = await this.unitOfWork.run(async ({ manager }) => {
      const endpoint = await this.lock(manager, principal, endpointId);
      if (!receivesDeliveries(endpoint)) throw webhookEndpointDisabled(endpointId);
      const failed = await this.deliveries.lockFailedOfEndpoint(manager, {
        tenantId: principal.tenantId,
        endpointId: endpoint.id,
        since,
        until,
      });
      return this.deliveries.requeue(manager, principal.tenantId, failed);
    });
    await this.deliveryQueue.enqueueNow(ids);
    return { endpointId, replayed: ids.length };
  }

  /** Certificate and key sealed like the secret; the summary is what answers show. */
  private sealedTls(tls: CreateWebhookEndpointRequest['tls']) {
    if (!tls) return { tlsSealed: null, tlsSummary: null };
    return { tlsSealed: this.secrets.seal(JSON.stringify(tls.material)), tlsSummary: { ...tls.summary } };
  }

  /** The tenant's endpoint, locked until the transaction ends; 404 when deleted or another tenant's. */
  private async lock(manager: EntityManager, principal: Principal, endpointId: string) {
    const endpoint = await this.endpoints.lockOfTenant(manager, principal.tenantId, endpointId);
    if (!endpoint) throw webhookEndpointNotFound(endpointId);
    return endpoint;
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
      throw webhookUrlRefused(error);
    }
  }
}
