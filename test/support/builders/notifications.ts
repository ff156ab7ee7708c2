import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  ChannelCode,
  DeliveryStatus,
  EndpointOrdering,
  EndpointStatus,
  NotificationConfigRepository,
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
} from '@fincore/notifications';
import type { TenantEntity } from '@fincore/platform';

/** Long enough ago that configs, endpoints and events made by default line up in time. */
export const EARLIER = new Date('2026-01-01T00:00:00Z');

/** An active endpoint (not saved) receiving every type. */
export function aWebhookEndpoint(overrides: Partial<WebhookEndpointEntity> = {}): WebhookEndpointEntity {
  return Object.assign(new WebhookEndpointEntity(), {
    id: randomUUID(),
    tenantId: randomUUID(),
    url: 'https://hooks.example.com/fincore',
    description: null,
    notificationTypeCodes: null,
    status: EndpointStatus.Active,
    ordering: EndpointOrdering.None,
    payload: 'FULL',
    disabledReason: null,
    disabledAt: null,
    secretSealed: 'sealed-secret',
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    rateLimit: null,
    signatureSchemes: ['v1'],
    signingKeySealed: null,
    publicKey: null,
    previousSigningKeySealed: null,
    previousPublicKey: null,
    failingSince: null,
    failingNotifiedAt: null,
    filter: null,
    tlsSealed: null,
    tlsSummary: null,
    lastSuccessAt: null,
    createdAt: EARLIER,
    updatedAt: EARLIER,
    deletedAt: null,
    ...overrides,
  });
}

/** A pending delivery (not saved), due since EARLIER. */
export function aWebhookDelivery(overrides: Partial<WebhookDeliveryEntity> = {}): WebhookDeliveryEntity {
  return Object.assign(new WebhookDeliveryEntity(), {
    id: randomUUID(),
    tenantId: randomUUID(),
    endpointId: randomUUID(),
    eventId: randomUUID(),
    notificationTypeCode: 'PERSON_UPDATED',
    eventOccurredAt: EARLIER,
    status: DeliveryStatus.Pending,
    subjectType: null,
    subjectId: null,
    sequence: null,
    attemptCount: 0,
    cycleAttempts: 0,
    nextAttemptAt: EARLIER,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    deliveredAt: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  });
}

/** Rows of the notification context (and the outbox events they hang off) for repository specs. */
export class NotificationRows {
  constructor(private readonly db: DataSource) {}

  /** An outbox event of the tenant about a person (a new one unless given); answers its id. */
  async event(
    tenant: TenantEntity,
    options: { type?: string; occurredAt?: Date; processed?: boolean; personId?: string } = {},
  ): Promise<string> {
    const id = randomUUID();
    const personId = options.personId ?? randomUUID();
    await this.db.query(
      `INSERT INTO events.outbox (id, type, tenant_code, occurred_at, correlation_id, data, processed_at, subject_type, subject_id)
       VALUES ($1, $2, $3, $4, 'corr-1', $5, $6, 'person', $7)`,
      [
        id,
        options.type ?? 'PERSON_UPDATED',
        tenant.code,
        options.occurredAt ?? new Date(),
        { personId },
        options.processed ? new Date() : null,
        personId,
      ],
    );
    return id;
  }

  /** The tenant enables the type over WEBHOOK at `at`. */
  async enable(tenant: TenantEntity, type = 'PERSON_UPDATED', at = EARLIER): Promise<void> {
    await new NotificationConfigRepository(this.db).upsertEnabled(
      { tenantId: tenant.id, notificationTypeCode: type, channelCode: ChannelCode.Webhook },
      at,
    );
  }

  async endpoint(
    tenant: TenantEntity,
    overrides: Partial<WebhookEndpointEntity> = {},
  ): Promise<WebhookEndpointEntity> {
    return this.db
      .getRepository(WebhookEndpointEntity)
      .save(aWebhookEndpoint({ tenantId: tenant.id, ...overrides }));
  }

  async delivery(
    endpoint: WebhookEndpointEntity,
    overrides: Partial<WebhookDeliveryEntity> = {},
  ): Promise<WebhookDeliveryEntity> {
    return this.db
      .getRepository(WebhookDeliveryEntity)
      .save(aWebhookDelivery({ tenantId: endpoint.tenantId, endpointId: endpoint.id, ...overrides }));
  }

  /** A failed attempt of the delivery, numbered after its others unless told. */
  async attempt(
    delivery: WebhookDeliveryEntity,
    overrides: Partial<WebhookDeliveryAttemptEntity> = {},
  ): Promise<WebhookDeliveryAttemptEntity> {
    const attempts = this.db.getRepository(WebhookDeliveryAttemptEntity);
    return attempts.save({
      id: randomUUID(),
      deliveryId: delivery.id,
      tenantId: delivery.tenantId,
      attemptNumber: (await attempts.countBy({ deliveryId: delivery.id })) + 1,
      startedAt: delivery.createdAt,
      durationMs: 12,
      statusCode: 500,
      outcome: 'FAILED',
      error: 'HTTP 500',
      responseExcerpt: null,
      ...overrides,
    });
  }

  async deliveryRow(id: string): Promise<WebhookDeliveryEntity> {
    return this.db.getRepository(WebhookDeliveryEntity).findOneByOrFail({ id });
  }

  async endpointRow(id: string): Promise<WebhookEndpointEntity> {
    return this.db.getRepository(WebhookEndpointEntity).findOneByOrFail({ id });
  }
}
