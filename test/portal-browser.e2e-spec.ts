import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { asPortal, openPortalLink } from './support/builders/portal';
import {
  createWebhookEndpoint,
  DeliveryWorld,
  listDeliveries,
  startApiAndNotifier,
} from './support/builders/webhooks';
import { eventually } from './support/http';
import { checkAndShoot, cliPortalLink, PortalBrowser } from './support/portal-browser';
import type { RunningApp, TenantFixture } from './support/stack';
import { WebhookReceiver } from './support/webhook-receiver';

/** The subscriber portal as a subscriber uses it: a CLI link, then Chromium against the real stack. */
describe('subscriber portal in a browser', () => {
  let world: DeliveryWorld, credentials: RunningApp, receiver: WebhookReceiver, browser: PortalBrowser;
  let acme: TenantFixture;
  beforeAll(async () => {
    world = await startApiAndNotifier();
    credentials = await world.stack.startApp(CredentialsApiApp);
    receiver = await WebhookReceiver.start();
    browser = await PortalBrowser.launch();
    acme = await world.stack.createTenant();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await world?.stack.close();
  });
  afterEach(() => {
    // A page that logged an error failed, whatever it showed.
    expect(browser.consoleErrors.splice(0)).toEqual([]);
  });

  const cliLink = (tenant: string, ...flags: string[]) =>
    cliPortalLink(world.stack, world.api.url, tenant, ...flags);
  const open = (link: string) => browser.open(link);

  it('opens a CLI link, enables a type, creates an endpoint and shows its delivery with every attempt', async () => {
    const page = await open(cliLink(acme.tenant.code));
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();

    await page.getByRole('link', { name: 'Notifications' }).click();
    // A controlled switch: it turns once the API has answered.
    await page.getByRole('switch', { name: /PERSON_UPDATED/ }).click();
    await page.getByText('PERSON_UPDATED (WEBHOOK): On').waitFor();
    await checkAndShoot(page, 'configuration');

    await page.getByRole('link', { name: 'Endpoints' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Description').fill('CRM sync');
    await page.getByRole('checkbox', { name: 'PERSON_UPDATED' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const secret = String(await page.getByTestId('secret').textContent());
    expect(secret).toMatch(/^whsec_/);
    await checkAndShoot(page, 'endpoints');

    // The receiver fails, then the subscriber fixes it.
    receiver.setDefault({ status: 500, body: 'receiver broke' });
    const person = { personId: 'person-4711', username: 'ada.lovelace', password: 'analytical engine 1843' };
    expect((await credentials.api.post('/api/v1/persons', person, { token: acme.token })).status).toBe(201);
    expect(
      (await credentials.api.post('/api/v1/credentials/invalidate', person, { token: acme.token })).status,
    ).toBe(200);
    await eventually(async () => (await listDeliveries(world.api.api, acme.token))[0]?.status === 'FAILED', {
      what: 'the delivery to fail at the receiver',
    });
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByLabel('Status').selectOption('FAILED');
    await page.getByRole('cell', { name: 'Failed' }).waitFor();
    await checkAndShoot(page, 'deliveries');
    // The subscriber looks the webhook up by the webhook-id its receiver logged.
    const [failed] = await receiver.waitFor(1);
    await page.getByLabel('Status').selectOption('');
    const webhookId = String(failed.headers['webhook-id']);
    await page.getByLabel('webhook-id').fill(webhookId);
    await page.waitForURL(`**/portal/#/deliveries?eventId=${webhookId}`);
    await page.getByRole('row').nth(1).getByRole('link').click();
    await page.getByRole('definition').filter({ hasText: webhookId }).waitFor();
    // What was sent: the signature header of each attempt and the body, never the secret.
    // (attempts within one second share a timestamp, and so their signature)
    await page.getByText(`webhook-signature: ${failed.headers['webhook-signature']}`).first().waitFor();
    expect(JSON.parse(String(await page.getByTestId('request-body').textContent()))).toEqual(
      JSON.parse(failed.body),
    );
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('cell', { name: 'receiver broke' }).first().waitFor();
    await expect(page.getByRole('cell', { name: '500', exact: true }).count()).resolves.toBeGreaterThan(0);

    receiver.setDefault({ status: 200, body: 'ok' });
    await page.getByRole('button', { name: 'Retry now' }).click();
    await eventually(
      async () => {
        await page.reload();
        return page.getByText('Succeeded').first().isVisible();
      },
      { what: 'the retried delivery to succeed' },
    );
    await checkAndShoot(page, 'delivery');

    await page.getByRole('link', { name: /^[0-9a-f-]{36}$/ }).click();
    await page.getByRole('img', { name: /Succeeded 1/ }).waitFor();
    // How a receiver checks this endpoint's webhooks: its public key, and code for three languages.
    const [shown] = (await world.api.api.get('/api/v1/webhook-endpoints', { token: acme.token })).body.items;
    await expect(page.getByTestId('public-key').textContent()).resolves.toBe(shown.publicKey);
    for (const language of ['Node.js', 'Python', 'Go']) {
      await page.locator('summary', { hasText: language }).click();
    }
    const snippets = await page.locator('details[open] pre').allTextContents();
    expect(snippets).toEqual([
      expect.stringContaining('new Webhook(process.env.WEBHOOK_SECRET)'),
      expect.stringContaining('Webhook(os.environ["WEBHOOK_SECRET"])'),
      expect.stringContaining('standardwebhooks.NewWebhook(os.Getenv("WEBHOOK_SECRET"))'),
    ]);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event sent.').waitFor();
    await receiver.waitFor(1, { filter: (w) => w.json?.type === 'WEBHOOK_TEST' });
    await checkAndShoot(page, 'endpoint');
    await page.getByRole('link', { name: 'Event types' }).click();
    await page.getByRole('heading', { name: 'PERSON_UPDATED' }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event sent.').waitFor();
    await receiver.waitFor(2, { filter: (w) => w.json?.type === 'WEBHOOK_TEST' });
    await checkAndShoot(page, 'event-types');

    await page.getByRole('link', { name: 'Endpoints' }).click();
    await page.getByRole('link', { name: receiver.url }).first().click();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Payload').selectOption('THIN');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('definition').filter({ hasText: 'Thin: ids and changed fields only' }).waitFor();
    const { items } = (await world.api.api.get('/api/v1/webhook-endpoints', { token: acme.token })).body;
    expect(items.map((e: { payload: string }) => e.payload)).toEqual(['THIN']);
    expect(browser.foreignHosts()).toEqual([]);
  }, 90_000);

  it('gives a read-only session no controls, and the API refuses its changes', async () => {
    const endpoint = await createWebhookEndpoint(world.api.api, acme.token, { url: receiver.url });
    const page = await open(cliLink(acme.tenant.code, '--read-only'));
    await page.getByText('Read-only access').waitFor();
    await page.getByRole('link', { name: receiver.url }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);
    await page.goto(`${world.api.url}/portal/#/endpoints/${endpoint.id}`);
    await page.getByRole('heading', { name: receiver.url }).waitFor();
    expect(
      await page
        .getByRole('button')
        .filter({ hasText: /Disable|Delete|Rotate|Edit|Replay/ })
        .count(),
    ).toBe(0);
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.getByText(/PERSON_UPDATED \(WEBHOOK\)/).waitFor();
    expect(await page.getByRole('switch').count()).toBe(0);
    const refused = await page.request.post(
      `${world.api.url}/api/v1/webhook-endpoints/${endpoint.id}/disable`,
      {
        headers: { 'x-fincore-portal': '1' },
      },
    );
    expect(refused.status()).toBe(403);
  }, 60_000);

  it("refuses a reused or expired link, and another tenant's endpoint is a 404", async () => {
    const link = cliLink(acme.tenant.code);
    const page = await open(link);
    const again = await page.goto(link);
    expect(again?.status()).toBe(410);
    await page.getByText('already been used').waitFor();
    // The refusal's status is the only error the browser may report here.
    const reported = browser.consoleErrors.splice(0);
    expect(reported).toEqual([expect.stringContaining('status of 410 (Gone)')]);

    const other = await world.stack.createTenant();
    const theirs = await createWebhookEndpoint(world.api.api, other.token, { url: receiver.url });
    const cookie = (await browser.context.cookies()).find((c) => c.name === 'fincore_portal')!;
    const r = await world.api.api.get(
      `/api/v1/webhook-endpoints/${theirs.id}`,
      asPortal(`${cookie.name}=${cookie.value}`),
    );
    expect(r.status).toBe(404);

    const stale = cliLink(acme.tenant.code);
    const db = await world.stack.db();
    await db.query(`UPDATE platform.portal_sessions SET link_expires_at = now() WHERE opened_at IS NULL`);
    const expired = await openPortalLink(world.api.url, stale);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('expired');
  }, 60_000);

  it('speaks German to a browser that prefers it', async () => {
    const german = await PortalBrowser.launch('de-DE');
    try {
      const page = await german.newPage();
      await page.goto(cliLink(acme.tenant.code));
      await page.getByRole('heading', { name: 'Endpunkte' }).waitFor();
      await page.getByRole('link', { name: 'Zustellungen' }).click();
      await page.getByLabel('Ereignistyp').waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      expect(german.consoleErrors).toEqual([]);
    } finally {
      await german.close();
    }
  }, 60_000);
});
