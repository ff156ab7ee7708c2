import type { EntityManager } from 'typeorm';
import type { UnitOfWork } from '@fincore/events';
import {
  EndpointPacingState,
  WebhookDeliveryAdminRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import type { AppConfig, Principal } from '@fincore/platform';
import { SecretBox } from '@fincore/webhooks';
import { aWebhookEndpoint } from '@test/support/builders/notifications';
import { newDouble } from '@test/support/doubles';
import { newUnitOfWork, TransactionDouble } from '@test/support/unit-of-work-double';
import { DeliveryQueue } from '../webhook-deliveries/delivery-queue';
import { WebhookEndpointsService } from './webhook-endpoints.service';

const principal: Principal = { tokenId: 't', tenantId: 'tenant-1', tenantCode: 'ACME', scopes: [] };
const config = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: true,
  WEBHOOK_SECRET_GRACE_HOURS: 24,
  WEBHOOK_MAX_ENDPOINTS_PER_TENANT: 20,
} as AppConfig;

describe('WebhookEndpointsService', () => {
  let endpoints: jest.Mocked<WebhookEndpointRepository>;
  let deliveries: jest.Mocked<WebhookDeliveryAdminRepository>;
  let unitOfWork: jest.Mocked<UnitOfWork>;
  let tx: TransactionDouble;
  let manager: EntityManager;
  let secrets: jest.Mocked<SecretBox>;
  let deliveryQueue: jest.Mocked<DeliveryQueue>;
  let pacing: jest.Mocked<EndpointPacingState>;
  let sut: WebhookEndpointsService;

  const build = (settings: AppConfig = config) =>
    new WebhookEndpointsService(endpoints, deliveries, unitOfWork, settings, secrets, deliveryQueue, pacing);

  beforeEach(() => {
    endpoints = newDouble<WebhookEndpointRepository>();
    deliveries = newDouble<WebhookDeliveryAdminRepository>();
    manager = { transaction: true } as unknown as EntityManager;
    ({ uow: unitOfWork, tx } = newUnitOfWork(manager));
    secrets = newDouble<SecretBox>();
    secrets.seal.mockImplementation((secret) => `sealed:${secret}`);
    deliveryQueue = newDouble<DeliveryQueue>();
    pacing = newDouble<EndpointPacingState>();
    pacing.reset.mockResolvedValue();
    sut = build();
  });

  describe('create', () => {
    beforeEach(() => endpoints.insert.mockImplementation(async (_m, endpoint) => endpoint));

    it('stores the normalised URL and the sealed secret under the tenant lock, and shows the secret once', async () => {
      endpoints.countOfTenant.mockResolvedValue(0);

      const created = await sut.create(principal, {
        url: 'http://127.0.0.1:9/hook',
        notificationTypeCodes: ['PERSON_UPDATED', 'PERSON_UPDATED'],
      });

      expect(endpoints.lockTenantForEndpointCreation).toHaveBeenCalledWith(manager, 'tenant-1');
      const [, stored] = endpoints.insert.mock.calls[0];
      expect(stored).toMatchObject({
        tenantId: 'tenant-1',
        url: 'http://127.0.0.1:9/hook',
        description: null,
        notificationTypeCodes: ['PERSON_UPDATED'],
        status: 'ACTIVE',
        secretSealed: `sealed:${created.secret}`,
      });
      expect(created.secret).toMatch(/^whsec_/);
      expect(created).toMatchObject({ id: stored.id, status: 'ACTIVE' });
    });

    it('gives every endpoint a sealed ed25519 key pair, v1 signatures and no rate limit by default', async () => {
      endpoints.countOfTenant.mockResolvedValue(0);

      const created = await sut.create(principal, { url: 'http://127.0.0.1:9/hook' });

      const [, stored] = endpoints.insert.mock.calls[0];
      expect(stored.signingKeySealed).toMatch(/^sealed:whsk_/);
      expect(created).toMatchObject({
        rateLimit: null,
        signatureSchemes: ['v1'],
        publicKey: stored.publicKey,
      });
      expect(created.publicKey).toMatch(/^whpk_/);
    });

    it('stores the rate limit and signature schemes asked for', async () => {
      endpoints.countOfTenant.mockResolvedValue(0);

      const created = await sut.create(principal, {
        url: 'http://127.0.0.1:9/hook',
        rateLimit: 2,
        signatureSchemes: ['v1a', 'v1'],
      });

      expect(created).toMatchObject({ rateLimit: 2, signatureSchemes: ['v1', 'v1a'] });
    });

    it('refuses a tenant at the endpoint limit', async () => {
      endpoints.countOfTenant.mockResolvedValue(20);

      await expect(sut.create(principal, { url: 'http://127.0.0.1:9/hook' })).rejects.toMatchObject({
        code: 'webhook_endpoint_limit_reached',
        status: 422,
      });
      expect(endpoints.insert).not.toHaveBeenCalled();
    });

    it('takes the endpoint limit from the settings', async () => {
      sut = build({ ...config, WEBHOOK_MAX_ENDPOINTS_PER_TENANT: 100 });
      endpoints.countOfTenant.mockResolvedValueOnce(99).mockResolvedValueOnce(100);

      await sut.create(principal, { url: 'http://127.0.0.1:9/hook' });
      await expect(sut.create(principal, { url: 'http://127.0.0.1:9/hook' })).rejects.toMatchObject({
        code: 'webhook_endpoint_limit_reached',
      });
      expect(endpoints.insert).toHaveBeenCalledTimes(1);
    });

    it('refuses a private destination unless the operator allows them, before any transaction', async () => {
      sut = build({ ...config, WEBHOOK_ALLOW_PRIVATE_NETWORKS: false });

      await expect(sut.create(principal, { url: 'http://127.0.0.1:9/hook' })).rejects.toMatchObject({
        code: 'webhook_url_refused',
        status: 422,
      });
      expect(unitOfWork.run).not.toHaveBeenCalled();
    });
  });

  describe('list', () => {
    it("answers the tenant's endpoints", async () => {
      const endpoint = aWebhookEndpoint();
      endpoints.listOfTenant.mockResolvedValue([endpoint]);

      expect(await sut.list(principal)).toEqual({ items: [expect.objectContaining({ id: endpoint.id })] });
      expect(endpoints.listOfTenant).toHaveBeenCalledWith('tenant-1');
    });
  });

  describe('get', () => {
    it('answers the endpoint, or 404', async () => {
      const endpoint = aWebhookEndpoint();
      endpoints.findOfTenant.mockResolvedValueOnce(endpoint).mockResolvedValueOnce(null);

      expect(await sut.get(principal, endpoint.id)).toMatchObject({ id: endpoint.id, url: endpoint.url });
      await expect(sut.get(principal, endpoint.id)).rejects.toMatchObject({
        code: 'webhook_endpoint_not_found',
      });
    });
  });

  describe('delete', () => {
    it('soft-deletes the locked endpoint and fails its pending deliveries', async () => {
      const endpoint = aWebhookEndpoint();
      endpoints.lockOfTenant.mockResolvedValue(endpoint);

      await sut.delete(principal, endpoint.id);

      expect(endpoints.lockOfTenant).toHaveBeenCalledWith(manager, 'tenant-1', endpoint.id);
      expect(endpoints.update).toHaveBeenCalledWith(manager, endpoint.id, {
        deletedAt: expect.any(Date),
        status: 'DISABLED',
        disabledReason: 'deleted by the tenant',
        disabledAt: expect.any(Date),
        updatedAt: expect.any(Date),
      });
      expect(deliveries.failPendingOfEndpoint).toHaveBeenCalledWith(manager, endpoint.id, 'endpoint deleted');
    });

    it('keeps the reason of an endpoint disabled before, and answers 404 for an unknown one', async () => {
      const endpoint = aWebhookEndpoint({
        status: 'DISABLED',
        disabledReason: 'gone',
        disabledAt: new Date(0),
      });
      endpoints.lockOfTenant.mockResolvedValueOnce(endpoint).mockResolvedValueOnce(null);

      await sut.delete(principal, endpoint.id);
      expect(endpoints.update.mock.calls[0][2]).toMatchObject({
        disabledReason: 'gone',
        disabledAt: new Date(0),
      });
      await expect(sut.delete(principal, endpoint.id)).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('disable', () => {
    it('disables an active endpoint, fails its pending deliveries and emits WEBHOOK_ENDPOINT_DISABLED', async () => {
      const endpoint = aWebhookEndpoint();
      endpoints.lockOfTenant.mockResolvedValue(endpoint);

      const response = await sut.disable(principal, endpoint.id);

      expect(endpoints.save).toHaveBeenCalledWith(
        manager,
        expect.objectContaining({ status: 'DISABLED', disabledReason: 'disabled by the tenant' }),
      );
      expect(deliveries.failPendingOfEndpoint).toHaveBeenCalledWith(
        manager,
        endpoint.id,
        'endpoint disabled by the tenant',
      );
      expect(response.status).toBe('DISABLED');
      expect(tx.emit).toHaveBeenCalledWith('WEBHOOK_ENDPOINT_DISABLED', 'ACME', {
        endpointId: endpoint.id,
        url: endpoint.url,
        reason: 'disabled by the tenant',
        disabledAt: response.disabledAt,
      });
    });

    it('leaves a disabled endpoint as it is', async () => {
      endpoints.lockOfTenant.mockResolvedValue(
        aWebhookEndpoint({ status: 'DISABLED', disabledReason: '410' }),
      );

      expect(await sut.disable(principal, 'id')).toMatchObject({ disabledReason: '410' });
      expect(endpoints.save).not.toHaveBeenCalled();
      expect(deliveries.failPendingOfEndpoint).not.toHaveBeenCalled();
      expect(tx.emit).not.toHaveBeenCalled();
    });
  });

  describe('enable', () => {
    it('enables a disabled endpoint and forgets its failure streak and any Retry-After pause', async () => {
      const endpoint = aWebhookEndpoint({
        status: 'DISABLED',
        disabledReason: 'x',
        failingSince: new Date(0),
      });
      endpoints.lockOfTenant.mockResolvedValue(endpoint);

      await sut.enable(principal, endpoint.id);

      expect(endpoints.save).toHaveBeenCalledWith(
        manager,
        expect.objectContaining({
          status: 'ACTIVE',
          disabledReason: null,
          disabledAt: null,
          failingSince: null,
        }),
      );
      expect(pacing.reset).toHaveBeenCalledWith(endpoint.id);
    });

    it('still enables when the pause cannot be lifted', async () => {
      endpoints.lockOfTenant.mockResolvedValue(aWebhookEndpoint({ status: 'DISABLED' }));
      pacing.reset.mockRejectedValue(new Error('Redis away'));

      expect(await sut.enable(principal, 'id')).toMatchObject({ status: 'ACTIVE' });
    });

    it('leaves an active endpoint as it is', async () => {
      endpoints.lockOfTenant.mockResolvedValue(aWebhookEndpoint());

      await sut.enable(principal, 'id');
      expect(endpoints.save).not.toHaveBeenCalled();
      expect(pacing.reset).not.toHaveBeenCalled();
    });
  });

  describe('rotateSecret', () => {
    it('keeps the old secret for the grace period', async () => {
      const endpoint = aWebhookEndpoint({ secretSealed: 'sealed:old' });
      endpoints.lockOfTenant.mockResolvedValue(endpoint);

      const rotated = await sut.rotateSecret(principal, endpoint.id);

      const [, saved] = endpoints.save.mock.calls[0];
      expect(saved).toMatchObject({
        previousSecretSealed: 'sealed:old',
        secretSealed: `sealed:${rotated.secret}`,
      });
      expect(rotated.previousSecretExpiresAt).toBe(saved.previousSecretExpiresAt!.toISOString());
    });

    it('rotates the key pair with the secret, the old pair signing through the same grace period', async () => {
      const endpoint = aWebhookEndpoint({ signingKeySealed: 'sealed:whsk_old', publicKey: 'whpk_old' });
      endpoints.lockOfTenant.mockResolvedValue(endpoint);

      const rotated = await sut.rotateSecret(principal, endpoint.id);

      const [, saved] = endpoints.save.mock.calls[0];
      expect(saved).toMatchObject({
        previousSigningKeySealed: 'sealed:whsk_old',
        previousPublicKey: 'whpk_old',
      });
      expect(rotated.publicKey).toBe(saved.publicKey);
      expect(rotated.publicKey).not.toBe('whpk_old');
    });

    it('drops the old secret at once without a grace period', async () => {
      sut = build({ ...config, WEBHOOK_SECRET_GRACE_HOURS: 0 });
      endpoints.lockOfTenant.mockResolvedValue(aWebhookEndpoint());

      expect((await sut.rotateSecret(principal, 'id')).previousSecretExpiresAt).toBeNull();
      expect(endpoints.save.mock.calls[0][1].previousSecretSealed).toBeNull();
    });
  });

  describe('update', () => {
    it('changes only the fields sent, and null removes the rate limit', async () => {
      endpoints.lockOfTenant.mockResolvedValue(aWebhookEndpoint({ rateLimit: 5, signatureSchemes: ['v1'] }));

      const limited = await sut.update(principal, 'id', { signatureSchemes: ['v1', 'v1a'] });
      const unlimited = await sut.update(principal, 'id', { rateLimit: null });

      expect(limited).toMatchObject({ rateLimit: 5, signatureSchemes: ['v1', 'v1a'] });
      expect(unlimited).toMatchObject({ rateLimit: null, signatureSchemes: ['v1', 'v1a'] });
    });

    it('replaces the filter when sent, keeps it when omitted, and null removes it', async () => {
      const filter = { path: 'data.changedFields', contains: 'credentials.status' };
      endpoints.lockOfTenant.mockResolvedValue(aWebhookEndpoint({ filter: { path: 'type', exists: true } }));

      const replaced = await sut.update(principal, 'id', { filter });
      const kept = await sut.update(principal, 'id', { rateLimit: 3 });
      const removed = await sut.update(principal, 'id', { filter: null });

      expect([replaced.filter, kept.filter, removed.filter]).toEqual([filter, filter, null]);
    });

    it('gives an endpoint without a key pair one when v1a is turned on, and keeps an existing pair', async () => {
      endpoints.lockOfTenant.mockResolvedValueOnce(aWebhookEndpoint());
      const keyed = aWebhookEndpoint({ signingKeySealed: 'sealed:whsk_x', publicKey: 'whpk_x' });
      endpoints.lockOfTenant.mockResolvedValueOnce(keyed);

      const first = await sut.update(principal, 'id', { signatureSchemes: ['v1a'] });
      const second = await sut.update(principal, keyed.id, { signatureSchemes: ['v1a'] });

      expect(first.publicKey).toMatch(/^whpk_/);
      expect(endpoints.save.mock.calls[0][1].signingKeySealed).toMatch(/^sealed:whsk_/);
      expect(second.publicKey).toBe('whpk_x');
    });

    it('answers 404 for an unknown endpoint', async () => {
      endpoints.lockOfTenant.mockResolvedValue(null);
      await expect(sut.update(principal, 'id', { rateLimit: 1 })).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('publicKey', () => {
    it('lists the previous key only while it still signs', async () => {
      const endpoint = aWebhookEndpoint({
        publicKey: 'whpk_new',
        previousPublicKey: 'whpk_old',
        previousSecretExpiresAt: new Date(Date.now() + 3600_000),
      });
      endpoints.findOfTenant.mockResolvedValueOnce(endpoint);
      endpoints.findOfTenant.mockResolvedValueOnce({ ...endpoint, previousSecretExpiresAt: new Date(0) });

      expect(await sut.publicKey(principal, endpoint.id)).toMatchObject({
        publicKey: 'whpk_new',
        previousPublicKey: 'whpk_old',
      });
      expect(await sut.publicKey(principal, endpoint.id)).toMatchObject({ previousPublicKey: null });
    });
  });

  describe('replay', () => {
    const since = '2026-01-10T00:00:00Z';
    const until = '2026-01-11T00:00:00Z';

    it('requeues the failed deliveries of the range and enqueues them', async () => {
      const endpoint = aWebhookEndpoint();
      endpoints.lockOfTenant.mockResolvedValue(endpoint);
      deliveries.lockFailedOfEndpoint.mockResolvedValue(['d1', 'd2']);
      deliveries.requeue.mockResolvedValue(['d1', 'd2']);

      const result = await sut.replay(principal, endpoint.id, { since, until });

      expect(deliveries.lockFailedOfEndpoint).toHaveBeenCalledWith(manager, {
        tenantId: 'tenant-1',
        endpointId: endpoint.id,
        since: new Date(since),
        until: new Date(until),
      });
      expect(deliveries.requeue).toHaveBeenCalledWith(manager, 'tenant-1', ['d1', 'd2']);
      expect(deliveryQueue.enqueueNow).toHaveBeenCalledWith(['d1', 'd2']);
      expect(result).toEqual({ endpointId: endpoint.id, replayed: 2 });
    });

    it('refuses an empty range and a disabled endpoint', async () => {
      await expect(sut.replay(principal, 'id', { since: until, until: since })).rejects.toMatchObject({
        code: 'validation_failed',
      });
      endpoints.lockOfTenant.mockResolvedValue(aWebhookEndpoint({ status: 'DISABLED' }));
      await expect(sut.replay(principal, 'id', { since })).rejects.toMatchObject({
        code: 'webhook_endpoint_disabled',
        status: 409,
      });
      expect(deliveryQueue.enqueueNow).not.toHaveBeenCalled();
    });
  });
});
