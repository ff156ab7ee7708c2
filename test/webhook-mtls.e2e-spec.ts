import { DataSource } from 'typeorm';
import { getDelivery, listDeliveries, startWithReceiver, webhookTenant } from './support/builders/webhooks';
import { countRows, selectRows } from './support/db';
import { eventually } from './support/http';
import { commitPersonUpdated } from './support/outbox';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack } from './support/stack';
import { testCertificates } from './support/tls-certificates';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/** Mutual TLS against an HTTPS receiver that asks for a client certificate signed by its CA. */
describe('webhook endpoints: mutual TLS', () => {
  const { ca, server, client, stranger } = testCertificates();
  const tlsOf = (pair: { cert: string; key: string }) => ({
    clientCertificate: pair.cert,
    clientKey: pair.key,
    caCertificates: ca,
  });
  let stack: TestStack,
    db: DataSource,
    api: RunningApp,
    receiver: WebhookReceiver,
    close: () => Promise<void>;
  beforeAll(async () => {
    ({ stack, db, api, receiver, close } = await startWithReceiver({
      tls: { key: server.key, cert: server.cert, ca, requestCert: true, rejectUnauthorized: true },
    }));
  });
  afterAll(() => close());

  /** The first attempt of the event's delivery, once made. */
  const firstAttempt = (token: string, eventId: string) =>
    eventually(async () => {
      const delivery = (await listDeliveries(api.api, token)).find((d) => d.eventId === eventId);
      const attempts = delivery && (await getDelivery(api.api, token, delivery.id)).attempts;
      return attempts?.[0];
    });

  it('presents the certificate on every attempt; shows only what identifies it; stores it sealed', async () => {
    const f = await webhookTenant(stack, api.api, receiver.url, { endpoint: { tls: tlsOf(client) } });
    const event = await commitPersonUpdated(db, f.tenant.code);

    const [webhook] = await receiver.waitFor(1, { filter: (w) => w.path === `/${f.tenant.code}` });
    expect(verifyWebhook(webhook, f.endpoint.secret)).toMatchObject({ id: event.id });
    const shown = (await api.api.get(`/api/v1/webhook-endpoints/${f.endpoint.id}`, { token: f.token })).body;
    expect(shown.tls).toEqual({
      clientCertificate: expect.objectContaining({
        subject: 'CN=fincore notifier',
        issuer: 'CN=fincore test CA',
      }),
      hasClientKey: true,
      caCertificates: 1,
    });
    expect(JSON.stringify(shown)).not.toContain('PRIVATE KEY');
    const [row] = await selectRows<{ tls_sealed: string }>(db, 'notifications.webhook_endpoints', {
      id: f.endpoint.id,
    });
    expect(row.tls_sealed).toMatch(/^v1\./);
    expect(row.tls_sealed).not.toContain('BEGIN');
  });

  it('is refused with another certificate or none, replaced by an update and removed with null', async () => {
    const f = await webhookTenant(stack, api.api, receiver.url, { endpoint: { tls: tlsOf(stranger) } });
    const patch = (tls: unknown) =>
      api.api.patch(`/api/v1/webhook-endpoints/${f.endpoint.id}`, { tls }, { token: f.token });

    const refused = await commitPersonUpdated(db, f.tenant.code);
    expect(await firstAttempt(f.token, refused.id)).toMatchObject({
      outcome: 'FAILED',
      statusCode: null,
      error: expect.stringMatching(/refused the client certificate|unknown ca/),
    });

    expect((await patch(tlsOf(client))).status).toBe(200);
    const accepted = await commitPersonUpdated(db, f.tenant.code);
    await receiver.waitFor(1, { filter: (w) => w.headers['webhook-id'] === accepted.id });

    expect((await patch(null)).body.tls).toBeNull();
    const bare = await commitPersonUpdated(db, f.tenant.code);
    expect(await firstAttempt(f.token, bare.id)).toMatchObject({
      outcome: 'FAILED',
      error: expect.stringMatching(/certificate/i),
    });
    expect(
      receiver.received.filter((w) => w.path === `/${f.tenant.code}`).map((w) => w.headers['webhook-id']),
    ).not.toContain(bare.id);
  });

  it.each([
    ['tls.clientCertificate', { ...tlsOf(client), clientCertificate: 'not a certificate' }],
    ['tls.clientKey', { ...tlsOf(client), clientKey: stranger.key }],
    ['tls.caCertificates', { ...tlsOf(client), caCertificates: client.key }],
  ])('refuses bad material naming %s, and registers nothing', async (field, tls) => {
    const { token, tenant } = await stack.createTenant();
    const r = await api.api.post('/api/v1/webhook-endpoints', { url: receiver.url, tls }, { token });

    expectProblem(r, 400, 'validation_failed');
    expect(r.body.errors).toEqual([{ field, message: expect.any(String) }]);
    expect(await countRows(db, 'notifications.webhook_endpoints', { tenant_id: tenant.id })).toBe(0);
  });
});
