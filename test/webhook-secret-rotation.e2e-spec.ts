import type { DataSource } from 'typeorm';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { startApiAndNotifier, WebhookTenant, webhookTenant } from './support/builders/webhooks';
import { selectRows } from './support/db';
import { commitPersonUpdated } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import { ReceivedWebhook, verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/**
 * Secret rotation as a receiver sees it: while the grace period runs every delivery carries a
 * signature with the new secret and one with the old; afterwards only the new one signs. Checked
 * with the independent `standardwebhooks` package, one signature at a time.
 */
describe('webhook secret rotation: the old secret signs for the grace period, then no longer', () => {
  let stack: TestStack, db: DataSource, api: RunningApp, receiver: WebhookReceiver;
  beforeAll(async () => {
    ({ stack, db, api } = await startApiAndNotifier({ WEBHOOK_SECRET_GRACE_HOURS: '24' }));
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await stack.close();
  });

  const signaturesOf = (webhook: ReceivedWebhook) => String(webhook.headers['webhook-signature']).split(' ');
  /** The webhook as if it carried only this one signature. */
  const withSignature = (webhook: ReceivedWebhook, signature: string): ReceivedWebhook => ({
    ...webhook,
    headers: { ...webhook.headers, 'webhook-signature': signature },
  });
  const verifies = (webhook: ReceivedWebhook, secret: string) => {
    try {
      verifyWebhook(webhook, secret);
      return true;
    } catch {
      return false;
    }
  };
  const rotate = async (apiApp: RunningApp, f: WebhookTenant) => {
    const r = await apiApp.api.post(
      `/api/v1/webhook-endpoints/${f.endpoint.id}/rotate-secret`,
      {},
      { token: f.token },
    );
    expect(r.status).toBe(200);
    expect(r.body.secret).toMatch(/^whsec_/);
    expect(r.body.secret).not.toBe(f.endpoint.secret);
    return r.body as { secret: string; previousSecretExpiresAt: string | null };
  };
  const deliveredTo = async (f: WebhookTenant) => {
    const event = await commitPersonUpdated(db, f.tenant.code);
    const [webhook] = await receiver.waitFor(1, { filter: (w) => w.json?.id === event.id });
    return webhook;
  };

  it('signs with the new and the old secret until the grace period ends, then with the new one only', async () => {
    const f = await webhookTenant(stack, api.api, receiver.url);
    const oldSecret = f.endpoint.secret;
    const before = Date.now();
    const rotated = await rotate(api, f);
    const expiresAt = new Date(rotated.previousSecretExpiresAt!).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 24 * 3600_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);

    const during = await deliveredTo(f);
    const signatures = signaturesOf(during);
    expect(signatures).toEqual([expect.stringMatching(/^v1,/), expect.stringMatching(/^v1,/)]);
    const [current, previous] = signatures.map((s) => withSignature(during, s));
    expect([verifies(current, rotated.secret), verifies(current, oldSecret)]).toEqual([true, false]);
    expect([verifies(previous, rotated.secret), verifies(previous, oldSecret)]).toEqual([false, true]);

    // The grace period over: the old secret is still stored, only its time has run out.
    await db.query(
      `UPDATE notifications.webhook_endpoints
          SET previous_secret_expires_at = now() - interval '1 second'
        WHERE id = $1 AND previous_secret_sealed IS NOT NULL`,
      [f.endpoint.id],
    );
    const [row] = await selectRows(
      db,
      'notifications.webhook_endpoints',
      { id: f.endpoint.id },
      { columns: 'previous_secret_sealed, previous_secret_expires_at' },
    );
    expect(row.previous_secret_sealed).toEqual(expect.any(String));
    expect(row.previous_secret_expires_at.getTime()).toBeLessThan(Date.now());

    const after = await deliveredTo(f);
    expect(signaturesOf(after)).toEqual([expect.stringMatching(/^v1,/)]);
    expect(verifies(after, rotated.secret)).toBe(true);
    expect(verifies(after, oldSecret)).toBe(false);
  });

  it('without a grace period (WEBHOOK_SECRET_GRACE_HOURS=0) the old secret stops signing at once', async () => {
    const noGrace = await stack.startApp(NotificationApiApp, { WEBHOOK_SECRET_GRACE_HOURS: '0' });
    const f = await webhookTenant(stack, noGrace.api, receiver.url);
    const rotated = await rotate(noGrace, f);
    expect(rotated.previousSecretExpiresAt).toBeNull();

    const webhook = await deliveredTo(f);
    expect(signaturesOf(webhook)).toEqual([expect.stringMatching(/^v1,/)]);
    expect(verifies(webhook, rotated.secret)).toBe(true);
    expect(verifies(webhook, f.endpoint.secret)).toBe(false);
  });
});
