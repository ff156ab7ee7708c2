import type { EntityManager } from 'typeorm';
import { OutboxEventEntity, UnitOfWork } from '@fincore/events';
import {
  DeliveryForAttempt,
  DeliveryStatus,
  WebhookDeliveryAdminRepository,
  WebhookDeliveryAttemptRepository,
  WebhookEndpointRepository,
} from '@fincore/notifications';
import type { AppConfig } from '@fincore/platform';
import { createPublicKey, verify } from 'node:crypto';
import { generateSecret, generateSigningKeyPair, SecretBox, verifyWebhook } from '@fincore/webhooks';
import { newDouble } from '@test/support/doubles';
import { newUnitOfWork } from '@test/support/unit-of-work-double';
import { newNotifierMetricsDouble } from '@test/support/fixtures/notifier-metrics';
import { AttemptAdmission } from './attempt-admission';
import { AttemptRecorder } from './attempt-recorder';
import { DeliverySigner } from './delivery-signer';
import { DeliveryService } from './delivery.service';
import { EndpointHealth } from './endpoint-health';
import { EndpointPacer } from './endpoint-pacer';
import { SucceededAttemptRecorder } from './succeeded-attempt-recorder';
import { SentAttempt, WebhookSender } from './webhook-sender';
import { TenantPriority } from '../fairness/tenant-priority';

const config = {
  WEBHOOK_RETRY_SCHEDULE: '5,300',
  WEBHOOK_TIMEOUT_MS: 2000,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
  WEBHOOK_DISABLE_AFTER_HOURS: 72,
} as AppConfig;
const current = generateSecret();
const previous = generateSecret();
const keyPair = generateSigningKeyPair();

const delivery = (overrides: Partial<DeliveryForAttempt> = {}): DeliveryForAttempt => ({
  id: 'delivery-1',
  tenantId: 'tenant-1',
  endpointId: 'endpoint-1',
  eventId: '9a1e7f60-2d4b-4c1a-8e5f-7b3c2d1e0f99',
  status: 'PENDING',
  nextAttemptAt: null,
  eventOccurredAt: new Date(Date.now() - 1000),
  chain: null,
  endpoint: {
    url: 'https://hooks.example.com/fincore',
    status: 'ACTIVE',
    payload: 'FULL',
    deletedAt: null,
    disabledReason: null,
    secretSealed: 'sealed-current',
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    rateLimit: null,
    signatureSchemes: ['v1'],
    signingKeySealed: 'sealed-key',
    previousSigningKeySealed: null,
    failingNotifiedAt: null,
    tlsSealed: null,
  },
  event: Object.assign(new OutboxEventEntity(), {
    id: '9a1e7f60-2d4b-4c1a-8e5f-7b3c2d1e0f99',
    type: 'PERSON_UPDATED',
    tenantCode: 'ACME',
    occurredAt: new Date('2026-01-10T12:00:00Z'),
    correlationId: null,
    data: { personId: 'p1' },
  }),
  endpointPausedForMs: 0,
  ...overrides,
});
const chain = { endpointId: 'endpoint-1', subjectType: 'person', subjectId: 'p1', sequence: 4 };
const response = (statusCode: number): SentAttempt => ({
  result: { kind: 'response', statusCode },
  durationMs: 12,
  responseExcerpt: 'body',
  requestHeaders: null,
});

describe('DeliveryService', () => {
  let deliveries: jest.Mocked<WebhookDeliveryAttemptRepository>;
  let admin: jest.Mocked<WebhookDeliveryAdminRepository>;
  let endpoints: jest.Mocked<WebhookEndpointRepository>;
  let manager: EntityManager;
  let unitOfWork: jest.Mocked<UnitOfWork>;
  let sender: jest.Mocked<WebhookSender>;
  let secrets: jest.Mocked<SecretBox>;
  let metrics: ReturnType<typeof newNotifierMetricsDouble>;
  let pacer: jest.Mocked<EndpointPacer>;
  let priority: jest.Mocked<TenantPriority>;
  let sut: DeliveryService;

  beforeEach(() => {
    deliveries = newDouble<WebhookDeliveryAttemptRepository>();
    admin = newDouble<WebhookDeliveryAdminRepository>();
    endpoints = newDouble<WebhookEndpointRepository>();
    manager = { transaction: true } as unknown as EntityManager;
    unitOfWork = newUnitOfWork(manager).uow;
    sender = newDouble<WebhookSender>();
    secrets = newDouble<SecretBox>();
    const opened: Record<string, string> = { 'sealed-current': current, 'sealed-key': keyPair.signingKey };
    secrets.open.mockImplementation((sealed) => opened[sealed] ?? previous);
    metrics = newNotifierMetricsDouble();
    pacer = newDouble<EndpointPacer>();
    pacer.pace.mockResolvedValue({ kind: 'send' });
    priority = newDouble<TenantPriority>();
    const admission = new AttemptAdmission(deliveries, pacer);
    const recorder = new AttemptRecorder(
      deliveries,
      endpoints,
      new EndpointHealth(endpoints, admin, unitOfWork, config),
      unitOfWork,
      new SucceededAttemptRecorder(deliveries),
      pacer,
      config,
      metrics,
    );
    sut = new DeliveryService(
      deliveries,
      admission,
      new DeliverySigner(secrets),
      sender,
      recorder,
      metrics,
      priority,
      config,
    );
  });

  describe('attempt', () => {
    it('does nothing for a delivery that is gone or finished', async () => {
      deliveries.findForAttempt
        .mockResolvedValueOnce(undefined)
        .mockResolvedValueOnce(delivery({ status: 'FAILED' }));

      expect(await sut.attempt('delivery-1')).toEqual({ kind: 'done' });
      expect(await sut.attempt('delivery-1')).toEqual({ kind: 'done' });
      expect(sender.send).not.toHaveBeenCalled();
    });

    it('attempts a delivery its caller read already without reading it again', async () => {
      sender.send.mockResolvedValue(response(200));
      deliveries.recordSucceededAttempt.mockResolvedValue('SUCCEEDED');

      expect(await sut.attemptRead(delivery())).toEqual({ kind: 'done' });

      expect(deliveries.findForAttempt).not.toHaveBeenCalled();
      expect(sender.send).toHaveBeenCalledTimes(1);
      expect(deliveries.recordSucceededAttempt).toHaveBeenCalledWith(
        expect.objectContaining({ deliveryId: 'delivery-1', status: 'SUCCEEDED' }),
      );
    });

    it('waits for a delivery that is not due yet', async () => {
      const at = new Date(Date.now() + 60_000);
      deliveries.findForAttempt.mockResolvedValue(delivery({ nextAttemptAt: at }));

      expect(await sut.attempt('delivery-1')).toEqual({ kind: 'run_at', at });
      expect(sender.send).not.toHaveBeenCalled();
    });

    it('fails a delivery whose event is missing from the outbox, or whose endpoint is disabled', async () => {
      const disabled = delivery();
      disabled.endpoint = { ...disabled.endpoint, status: 'DISABLED', disabledReason: 'by the tenant' };
      deliveries.findForAttempt
        .mockResolvedValueOnce(delivery({ event: null }))
        .mockResolvedValueOnce(disabled);

      await sut.attempt('delivery-1');
      await sut.attempt('delivery-1');

      expect(deliveries.failPendingDelivery.mock.calls).toEqual([
        ['delivery-1', 'event 9a1e7f60-2d4b-4c1a-8e5f-7b3c2d1e0f99 is missing from the outbox'],
        ['delivery-1', 'endpoint disabled: by the tenant'],
      ]);
      expect(sender.send).not.toHaveBeenCalled();
    });

    it('sends the signed envelope, signed with the previous secret too while it is in grace', async () => {
      const d = delivery();
      d.endpoint = {
        ...d.endpoint,
        previousSecretSealed: 'sealed-previous',
        previousSecretExpiresAt: new Date(Date.now() + 60_000),
      };
      deliveries.findForAttempt.mockResolvedValue(d);
      sender.send.mockResolvedValue(response(200));

      await sut.attempt('delivery-1');

      const [request] = sender.send.mock.calls[0];
      expect(request).toMatchObject({
        url: d.endpoint.url,
        timeoutMs: 2000,
        policy: { allowPrivateNetworks: false },
      });
      expect(JSON.parse(request.body)).toMatchObject({
        id: d.eventId,
        type: 'PERSON_UPDATED',
        data: { personId: 'p1' },
      });
      for (const secret of [current, previous]) {
        expect(() => verifyWebhook({ body: request.body, headers: request.headers, secret })).not.toThrow();
      }
    });

    it('signs v1a with the ed25519 key instead of v1 when the endpoint asks for it', async () => {
      const d = delivery();
      d.endpoint = { ...d.endpoint, signatureSchemes: ['v1a'] };
      deliveries.findForAttempt.mockResolvedValue(d);
      sender.send.mockResolvedValue(response(200));

      await sut.attempt('delivery-1');

      const [{ body, headers }] = sender.send.mock.calls[0];
      const [scheme, signature] = headers['webhook-signature'].split(',');
      const publicKey = createPublicKey({
        key: {
          kty: 'OKP',
          crv: 'Ed25519',
          x: Buffer.from(keyPair.publicKey.slice(5), 'base64').toString('base64url'),
        },
        format: 'jwk',
      });
      const content = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
      expect(scheme).toBe('v1a');
      expect(verify(null, Buffer.from(content), publicKey, Buffer.from(signature, 'base64'))).toBe(true);
    });

    it("presents the endpoint's client certificate, opened from its sealed copy, and none without one", async () => {
      const material = { clientCertificate: 'CERT', clientKey: 'KEY', caCertificates: 'CA' };
      secrets.open.mockImplementation((sealed) =>
        sealed === 'sealed-tls'
          ? JSON.stringify(material)
          : sealed === 'sealed-key'
            ? keyPair.signingKey
            : current,
      );
      const d = delivery();
      deliveries.findForAttempt.mockResolvedValueOnce({
        ...d,
        endpoint: { ...d.endpoint, tlsSealed: 'sealed-tls' },
      });
      deliveries.findForAttempt.mockResolvedValueOnce(d);
      sender.send.mockResolvedValue(response(200));

      await sut.attempt('delivery-1');
      await sut.attempt('delivery-1');

      expect(sender.send.mock.calls.map(([request]) => request.tls)).toEqual([
        { certificate: 'CERT', key: 'KEY', certificateAuthority: 'CA' },
        undefined,
      ]);
    });

    it('waits for the endpoint slot the pacer gives, without sending or recording an attempt', async () => {
      const slot = new Date(Date.now() + 400);
      deliveries.findForAttempt.mockResolvedValue(
        delivery({ endpoint: { ...delivery().endpoint, rateLimit: 2 }, endpointPausedForMs: 300 }),
      );
      pacer.pace.mockResolvedValue({ kind: 'wait', at: slot });

      expect(await sut.attempt('delivery-1')).toEqual({ kind: 'run_at', at: slot });

      expect(pacer.pace).toHaveBeenCalledWith(
        { id: 'endpoint-1', rateLimit: 2, pausedForMs: 300 },
        'delivery-1',
      );
      expect(sender.send).not.toHaveBeenCalled();
      expect(deliveries.recordFailedAttempt).not.toHaveBeenCalled();
    });

    it('pauses the whole endpoint for the Retry-After of a 429, and not for a plain 500', async () => {
      deliveries.findForAttempt.mockResolvedValue(delivery());
      sender.send.mockResolvedValueOnce({
        result: { kind: 'response', statusCode: 429, retryAfter: '7' },
        durationMs: 5,
        responseExcerpt: null,
        requestHeaders: null,
      });
      sender.send.mockResolvedValueOnce(response(500));
      deliveries.lockForFailedAttempt.mockResolvedValue({
        cycleAttempts: 0,
        attemptCount: 0,
        status: DeliveryStatus.Pending,
      });
      deliveries.recordFailedAttempt.mockResolvedValue('PENDING');
      endpoints.markFailing.mockResolvedValue({
        status: 'ACTIVE',
        failingSince: new Date(),
        failingNotifiedAt: null,
      });

      await sut.attempt('delivery-1');
      await sut.attempt('delivery-1');

      expect(pacer.pause.mock.calls).toEqual([['endpoint-1', 7000]]);
    });

    it('sends the subject, and the sequence of an ordered endpoint, in the envelope', async () => {
      deliveries.findForAttempt.mockResolvedValue(delivery({ chain }));
      deliveries.pendingInChain.mockResolvedValue(undefined);
      sender.send.mockResolvedValue(response(200));
      deliveries.recordSucceededAttempt.mockResolvedValue('SUCCEEDED');

      await sut.attempt('delivery-1');

      expect(JSON.parse(sender.send.mock.calls[0][0].body)).toMatchObject({
        subject: { type: 'person', id: 'p1' },
        sequence: 4,
      });
    });

    it('holds an ordered delivery back while an earlier one about its subject is pending', async () => {
      const headDue = new Date(Date.now() + 30_000);
      deliveries.findForAttempt.mockResolvedValue(delivery({ chain }));
      deliveries.pendingInChain.mockResolvedValue({ id: 'delivery-0', nextAttemptAt: headDue });

      const sut1 = await sut.attempt('delivery-1');

      expect(deliveries.pendingInChain).toHaveBeenCalledWith(chain, 'before');
      expect(sut1).toEqual({ kind: 'run_at', at: expect.any(Date) });
      expect((sut1 as { at: Date }).at.getTime()).toBeGreaterThan(headDue.getTime());
      expect(sender.send).not.toHaveBeenCalled();
    });

    it('wakes the next delivery of the chain once an ordered one finished, failed for good included', async () => {
      deliveries.findForAttempt.mockResolvedValue(delivery({ chain }));
      const next = { id: 'delivery-2', nextAttemptAt: new Date() };
      deliveries.pendingInChain.mockImplementation(async (_, direction) =>
        direction === 'after' ? next : undefined,
      );
      sender.send.mockResolvedValueOnce(response(200)).mockResolvedValueOnce(response(500));
      deliveries.recordSucceededAttempt.mockResolvedValue('SUCCEEDED');
      deliveries.lockForFailedAttempt.mockResolvedValue({
        cycleAttempts: 2,
        attemptCount: 2,
        status: DeliveryStatus.Pending,
      });
      deliveries.recordFailedAttempt.mockResolvedValue('FAILED');
      endpoints.markFailing.mockResolvedValue({
        status: 'ACTIVE',
        failingSince: new Date(),
        failingNotifiedAt: null,
      });

      expect(await sut.attempt('delivery-1')).toEqual({ kind: 'done', wake: next });
      expect(await sut.attempt('delivery-1')).toEqual({ kind: 'done', wake: next });
    });

    it('keeps the chain waiting while an ordered delivery is retried', async () => {
      deliveries.findForAttempt.mockResolvedValue(delivery({ chain }));
      deliveries.pendingInChain.mockResolvedValue(undefined);
      sender.send.mockResolvedValue(response(500));
      deliveries.lockForFailedAttempt.mockResolvedValue({
        cycleAttempts: 0,
        attemptCount: 0,
        status: DeliveryStatus.Pending,
      });
      deliveries.recordFailedAttempt.mockResolvedValue('PENDING');
      endpoints.markFailing.mockResolvedValue({
        status: 'ACTIVE',
        failingSince: new Date(),
        failingNotifiedAt: null,
      });

      expect(await sut.attempt('delivery-1')).toMatchObject({ kind: 'run_at' });
      expect(deliveries.pendingInChain).not.toHaveBeenCalledWith(chain, 'after');
    });

    it('records a success in one statement, outside any transaction', async () => {
      deliveries.findForAttempt.mockResolvedValue(delivery());
      sender.send.mockResolvedValue(response(204));
      deliveries.recordSucceededAttempt.mockResolvedValue('SUCCEEDED');

      expect(await sut.attempt('delivery-1')).toEqual({ kind: 'done' });

      expect(deliveries.recordSucceededAttempt).toHaveBeenCalledWith(
        expect.objectContaining({
          deliveryId: 'delivery-1',
          endpointId: 'endpoint-1',
          statusCode: 204,
          outcome: 'SUCCEEDED',
          error: null,
          status: 'SUCCEEDED',
          nextAttemptAt: null,
          durationMs: 12,
          responseExcerpt: 'body',
          requestHeaders: null,
        }),
      );
      expect(unitOfWork.run).not.toHaveBeenCalled();
      expect(metrics.deliveries.inc).toHaveBeenCalledWith({ outcome: 'succeeded' });
      expect(metrics.eventToDelivery.observe).toHaveBeenCalled();
      // No longer pending: off its tenant's backlog.
      expect(priority.finished).toHaveBeenCalledWith('tenant-1');
    });

    it('locks the endpoint, then the delivery, and schedules a retry after a failure', async () => {
      deliveries.findForAttempt.mockResolvedValue(delivery());
      sender.send.mockResolvedValue(response(500));
      deliveries.lockForFailedAttempt.mockResolvedValue({
        cycleAttempts: 0,
        attemptCount: 0,
        status: DeliveryStatus.Pending,
      });
      deliveries.recordFailedAttempt.mockResolvedValue('PENDING');
      endpoints.markFailing.mockResolvedValue({
        status: 'ACTIVE',
        failingSince: new Date(),
        failingNotifiedAt: null,
      });

      const next = await sut.attempt('delivery-1');

      expect(endpoints.lockForFailedAttempt).toHaveBeenCalledWith(manager, 'endpoint-1');
      expect(endpoints.lockForFailedAttempt.mock.invocationCallOrder[0]).toBeLessThan(
        deliveries.lockForFailedAttempt.mock.invocationCallOrder[0],
      );
      const [, record] = deliveries.recordFailedAttempt.mock.calls[0];
      expect(record).toMatchObject({
        outcome: 'FAILED',
        error: 'HTTP 500',
        status: 'PENDING',
        statusCode: 500,
      });
      expect(next).toEqual({ kind: 'run_at', at: record.nextAttemptAt });
      expect(record.nextAttemptAt!.getTime() - record.finishedAt.getTime()).toBeGreaterThanOrEqual(4000);
      expect(endpoints.disableIfActive).not.toHaveBeenCalled();
      expect(metrics.endpointsDisabled.inc).not.toHaveBeenCalled();
      expect(metrics.deliveries.inc).toHaveBeenCalledWith({ outcome: 'retry_scheduled' });
      expect(priority.finished).not.toHaveBeenCalled();
    });

    it('fails the delivery once the schedule is exhausted', async () => {
      deliveries.findForAttempt.mockResolvedValue(delivery());
      sender.send.mockResolvedValue({
        result: { kind: 'error', message: 'timeout' },
        durationMs: 2000,
        responseExcerpt: null,
        requestHeaders: null,
      });
      deliveries.lockForFailedAttempt.mockResolvedValue({
        cycleAttempts: 2,
        attemptCount: 2,
        status: DeliveryStatus.Pending,
      });
      deliveries.recordFailedAttempt.mockResolvedValue('FAILED');

      expect(await sut.attempt('delivery-1')).toEqual({ kind: 'done' });
      expect(deliveries.recordFailedAttempt.mock.calls[0][1]).toMatchObject({
        status: 'FAILED',
        nextAttemptAt: null,
        error: 'timeout',
        statusCode: null,
      });
      expect(priority.finished).toHaveBeenCalledWith('tenant-1');
    });

    it('is done when someone else finished the delivery while it was being sent', async () => {
      deliveries.findForAttempt.mockResolvedValue(delivery());
      sender.send.mockResolvedValue(response(500));
      deliveries.lockForFailedAttempt.mockResolvedValue({
        cycleAttempts: 0,
        attemptCount: 0,
        status: DeliveryStatus.Pending,
      });
      deliveries.recordFailedAttempt.mockResolvedValue('FAILED');

      expect(await sut.attempt('delivery-1')).toEqual({ kind: 'done' });
    });

    it('disables the endpoint on 410 Gone and fails its pending deliveries', async () => {
      deliveries.findForAttempt.mockResolvedValue(delivery());
      sender.send.mockResolvedValue(response(410));
      endpoints.disableIfActive.mockResolvedValue(true);
      deliveries.lockForFailedAttempt.mockResolvedValue({
        cycleAttempts: 0,
        attemptCount: 0,
        status: DeliveryStatus.Pending,
      });
      endpoints.markFailing.mockResolvedValue({
        status: 'ACTIVE',
        failingSince: new Date(),
        failingNotifiedAt: null,
      });

      await sut.attempt('delivery-1');

      expect(metrics.endpointsDisabled.inc).toHaveBeenCalledWith({ reason: 'gone' });
      const reason = 'the receiver answered 410 Gone';
      expect(endpoints.disableIfActive).toHaveBeenCalledWith(manager, 'endpoint-1', reason, expect.any(Date));
      expect(admin.failPendingOfEndpoint).toHaveBeenCalledWith(
        manager,
        'endpoint-1',
        `endpoint disabled: ${reason}`,
      );
    });

    it('disables an endpoint failing for longer than the limit, unless it is disabled already', async () => {
      const since = new Date(Date.now() - 73 * 3600 * 1000);
      deliveries.findForAttempt.mockResolvedValue(delivery());
      sender.send.mockResolvedValue(response(500));
      deliveries.lockForFailedAttempt.mockResolvedValue({
        cycleAttempts: 0,
        attemptCount: 0,
        status: DeliveryStatus.Pending,
      });
      endpoints.disableIfActive.mockResolvedValue(true);
      endpoints.markFailing
        .mockResolvedValueOnce({ status: 'ACTIVE', failingSince: since, failingNotifiedAt: null })
        .mockResolvedValueOnce({ status: 'DISABLED', failingSince: since, failingNotifiedAt: null });

      await sut.attempt('delivery-1');
      await sut.attempt('delivery-1');

      expect(endpoints.disableIfActive).toHaveBeenCalledTimes(1);
      expect(metrics.endpointsDisabled.inc.mock.calls).toEqual([[{ reason: 'failing' }]]);
      expect(endpoints.disableIfActive.mock.calls[0][2]).toBe(
        `failing without a success since ${since.toISOString()} (limit 72 h)`,
      );
    });
  });
});
