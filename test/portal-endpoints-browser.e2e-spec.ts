import type { Page } from 'playwright-core';
import { createWebhookEndpoint, startWithReceiver, getDelivery } from './support/builders/webhooks';
import { eventually } from './support/http';
import {
  checkAndShoot,
  openPortal,
  PortalBrowser,
  seriousAccessibilityViolations,
} from './support/portal-browser';
import type { TenantFixture } from './support/stack';
import { testCertificates } from './support/tls-certificates';

const filter = { path: 'data.changedFields', contains: 'credentials.status' };

/** The portal's endpoint settings and figures in Chromium: health, schemes, filter, mutual TLS, examples. */
describe('subscriber portal: endpoint settings in a browser', () => {
  let world: Awaited<ReturnType<typeof startWithReceiver>>, browser: PortalBrowser;
  let acme: TenantFixture;
  beforeAll(async () => {
    world = await startWithReceiver();
    browser = await PortalBrowser.launch();
  }, 60_000);
  beforeEach(async () => {
    acme = await world.stack.createTenant();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });
  afterEach(() => {
    expect(browser.consoleErrors.splice(0)).toEqual([]);
    expect(browser.foreignHosts()).toEqual([]);
  });

  const endpoints = async () =>
    (await world.api.api.get('/api/v1/webhook-endpoints', { token: acme.token })).body.items;
  const addEndpoint = async (page: Page, filterText: string) => {
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('URL').fill(world.receiver.url);
    await page.getByLabel('Event filter').fill(filterText);
  };

  it("shows an endpoint's last 24 hours beside its health once a delivery was made", async () => {
    const endpoint = await createWebhookEndpoint(world.api.api, acme.token, { url: world.receiver.url });
    await createWebhookEndpoint(world.api.api, acme.token, { url: `${world.receiver.url}/quiet` });
    const sent = await world.api.api.post(
      `/api/v1/webhook-endpoints/${endpoint.id}/test`,
      {},
      { token: acme.token },
    );
    const delivery = await eventually(
      async () => {
        const d = await getDelivery(world.api.api, acme.token, sent.body.id);
        return d.status === 'SUCCEEDED' && d;
      },
      { what: 'the test event to be delivered' },
    );
    const durationMs = Number(delivery.attempts[0].durationMs);

    const page = await openPortal(browser, world.api, acme.token);
    // The list shows each URL as stored: normalised.
    const row = (url: string) =>
      page.getByRole('row').filter({ has: page.getByRole('link', { name: new URL(url).href, exact: true }) });
    const figures = (url: string) => row(url).locator('.figures');
    await figures(world.receiver.url).waitFor();
    await expect(figures(world.receiver.url).textContent()).resolves.toBe(
      `Last 24 hours: 1 succeeded, 0 failed, 0 pending · p95 attempt ${durationMs} ms`,
    );
    await expect(figures(`${world.receiver.url}/quiet`).textContent()).resolves.toBe(
      'Last 24 hours: 0 succeeded, 0 failed, 0 pending · no attempts',
    );
    await checkAndShoot(page, 'endpoints-health');
  }, 60_000);

  it('adds an endpoint signing with v1a only, with a filter and a client certificate whose key is never shown', async () => {
    const { client } = testCertificates();
    const page = await openPortal(browser, world.api, acme.token);
    await addEndpoint(page, JSON.stringify(filter));
    await page.getByRole('checkbox', { name: /^v1a:/ }).check();
    await page.getByRole('checkbox', { name: /^v1:/ }).uncheck();
    await page.getByLabel('Mutual TLS').selectOption('new');
    await checkAndShoot(page, 'endpoint-form');
    await page.getByLabel('Client certificate (PEM)').fill(client.cert);
    await page.getByLabel(/^Private key/).fill(client.key);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Reveal secret' }).waitFor();

    const [created] = await endpoints();
    expect(created).toMatchObject({ signatureSchemes: ['v1a'], filter, tls: { hasClientKey: true } });
    await page.getByRole('link', { name: world.receiver.url }).click();
    const fact = (term: string) => page.locator(`dt:text-is("${term}") + dd`);
    await expect(fact('Signature schemes').textContent()).resolves.toBe('v1a');
    expect(JSON.parse((await fact('Event filter').textContent()) ?? '')).toEqual(filter);
    await expect(fact('Mutual TLS').textContent()).resolves.toContain(
      created.tls.clientCertificate.fingerprint256,
    );
    expect(await page.content()).not.toContain(client.key.split('\n')[1]);
    await checkAndShoot(page, 'endpoint-settings');
  }, 60_000);

  it("shows the API's refusal of a filter beside the field and changes nothing", async () => {
    const page = await openPortal(browser, world.api, acme.token);
    await addEndpoint(page, '{"path": "data.personId", "startsWith": "person-"}');
    await page.getByRole('button', { name: 'Save' }).click();
    const refusal = page.locator('#filter-problem');
    await refusal.waitFor();
    // The API's own words for the field, as its problem names them.
    const r = await world.api.api.post(
      '/api/v1/webhook-endpoints',
      { url: world.receiver.url, filter: { path: 'data.personId', startsWith: 'person-' } },
      { token: acme.token },
    );
    expect(r.status).toBe(400);
    const [{ field, message }] = r.body.errors as Array<{ field: string; message: string }>;
    await expect(refusal.textContent()).resolves.toBe(
      field === 'filter' ? message : `${field.slice(7)}: ${message}`,
    );
    await page.getByLabel('Event filter').fill('{"path": ');
    await page.getByRole('button', { name: 'Save' }).click();
    await refusal.getByText(/^Not valid JSON/).waitFor();
    // The API's 400 is the only error the browser may report here; the text that is no JSON was never sent.
    expect(browser.consoleErrors.splice(0)).toEqual([expect.stringContaining('status of 400 (Bad Request)')]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(await endpoints()).toEqual([]);
  }, 60_000);

  it("shows each event type's example data as the catalog gives it", async () => {
    const { items } = (await world.api.api.get('/api/v1/notification-types', { token: acme.token })).body;
    const person = items.find((t: { code: string }) => t.code === 'PERSON_UPDATED');
    const page = await openPortal(browser, world.api, acme.token);
    await page.getByRole('link', { name: 'Event types' }).click();
    const example = page.getByTestId('example-PERSON_UPDATED');
    await example.waitFor();
    expect(JSON.parse((await example.textContent()) ?? '')).toEqual(person.example);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  }, 60_000);
});
