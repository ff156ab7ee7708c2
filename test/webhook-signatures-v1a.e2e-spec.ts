import type { DataSource } from 'typeorm';
import { createWebhookEndpoint, enableNotifications, startApiAndNotifier } from './support/builders/webhooks';
import { expectStatus } from './support/http';
import { commitPersonUpdated } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import {
  ReceivedWebhook,
  verifiesV1a as subscriberVerifiesV1a,
  verifyWebhook,
  WebhookReceiver,
} from './support/webhook-receiver';

/**
 * ed25519 signatures (Standard Webhooks v1a) as a subscriber checks them: with the public key the
 * API publishes and node:crypto alone, never fincore's own code; v1 alongside with the independent
 * `standardwebhooks` package.
 */
describe('webhook signatures v1a (ed25519)', () => {
  let stack: TestStack, db: DataSource, api: RunningApp, receiver: WebhookReceiver;
  beforeAll(async () => {
    ({ stack, db, api } = await startApiAndNotifier());
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await stack.close();
  });

  /** A subscriber's verification, with the key format checked on the way. */
  const verifiesV1a = (webhook: ReceivedWebhook, whpk: string) => {
    expect(whpk).toMatch(/^whpk_/);
    expect(Buffer.from(whpk.slice('whpk_'.length), 'base64')).toHaveLength(32);
    return subscriberVerifiesV1a(webhook, whpk);
  };

  const deliveredTo = async (tenantCode: string, path: string) => {
    const event = await commitPersonUpdated(db, tenantCode);
    const [webhook] = await receiver.waitFor(1, {
      filter: (w) => w.json?.id === event.id && w.path === path,
    });
    return webhook;
  };

  const fetchPublicKey = async (token: string, endpointId: string) =>
    expectStatus(
      await api.api.get(`/api/v1/webhook-endpoints/${endpointId}/public-key`, { token }),
      200,
      'fetch the public key',
    ).body as { id: string; publicKey: string; previousPublicKey: string | null };

  it('signs v1a only, verifiable with the published public key, from creating the endpoint to the webhook', async () => {
    const f = await stack.createTenant();
    await enableNotifications(api.api, f.token);
    const path = `/${f.tenant.code}-v1a`;
    const endpoint = await createWebhookEndpoint(api.api, f.token, {
      url: receiver.url + path,
      signatureSchemes: ['v1a'],
    });
    expect(endpoint).toMatchObject({ signatureSchemes: ['v1a'], publicKey: expect.stringMatching(/^whpk_/) });
    const reader = await f.tokenWith(['notifications:read']);
    const published = await fetchPublicKey(reader, endpoint.id);
    expect(published).toMatchObject({
      id: endpoint.id,
      publicKey: endpoint.publicKey,
      previousPublicKey: null,
    });

    const webhook = await deliveredTo(f.tenant.code, path);

    expect(String(webhook.headers['webhook-signature'])).toMatch(/^v1a,[A-Za-z0-9+/=]+$/);
    expect(verifiesV1a(webhook, published.publicKey)).toBe(true);
    expect(verifiesV1a({ ...webhook, body: webhook.body.replace('"', ' "') }, published.publicKey)).toBe(
      false,
    );
  });

  it('carries v1 and v1a side by side during a migration, each verifiable on its own', async () => {
    const f = await stack.createTenant();
    await enableNotifications(api.api, f.token);
    const path = `/${f.tenant.code}-both`;
    const endpoint = await createWebhookEndpoint(api.api, f.token, { url: receiver.url + path });
    expect(endpoint.signatureSchemes).toEqual(['v1']);
    const updated = expectStatus(
      await api.api.patch(
        `/api/v1/webhook-endpoints/${endpoint.id}`,
        { signatureSchemes: ['v1', 'v1a'] },
        { token: f.token },
      ),
      200,
      'turn v1a on',
    ).body;
    expect(updated.signatureSchemes).toEqual(['v1', 'v1a']);

    const webhook = await deliveredTo(f.tenant.code, path);

    const signatures = String(webhook.headers['webhook-signature']).split(' ');
    expect(signatures.map((s) => s.slice(0, s.indexOf(',')))).toEqual(['v1', 'v1a']);
    expect(verifyWebhook(webhook, endpoint.secret)).toMatchObject({ id: webhook.json.id });
    expect(verifiesV1a(webhook, (await fetchPublicKey(f.token, endpoint.id)).publicKey)).toBe(true);
  });

  it("publishes the key only to the endpoint's tenant and to readers", async () => {
    const f = await stack.createTenant();
    const other = await stack.createTenant();
    const endpoint = await createWebhookEndpoint(api.api, f.token, { url: `${receiver.url}/x` });
    const path = `/api/v1/webhook-endpoints/${endpoint.id}/public-key`;

    expect((await api.api.get(path, { token: other.token })).status).toBe(404);
    expect((await api.api.get(path, { token: await f.tokenWith(['cards:read']) })).status).toBe(403);
    expect((await api.api.get(path)).status).toBe(401);
  });

  it('refuses a rate limit that is not a positive integer and an unknown or repeated scheme', async () => {
    const f = await stack.createTenant();
    const endpoint = await createWebhookEndpoint(api.api, f.token, { url: `${receiver.url}/y` });
    const update = (body: unknown) =>
      api.api.patch(`/api/v1/webhook-endpoints/${endpoint.id}`, body, { token: f.token });

    for (const body of [
      { rateLimit: 0 },
      { rateLimit: 1.5 },
      { rateLimit: '2' },
      { signatureSchemes: ['v2'] },
      { signatureSchemes: [] },
      { signatureSchemes: ['v1', 'v1'] },
      {},
    ]) {
      const r = await update(body);
      expect({ body, status: r.status, code: r.body.code }).toEqual({
        body,
        status: 400,
        code: 'validation_failed',
      });
    }
    expect((await update({ rateLimit: null })).body.rateLimit).toBeNull();
  });
});
