import type { Page } from 'playwright-core';
import { asPortal } from './support/builders/portal';
import {
  createWebhookEndpoint,
  DeliveryWorld,
  listDeliveries,
  recordDeliveries,
  startApiAndNotifier,
} from './support/builders/webhooks';
import { eventually } from './support/http';
import { cliPortalLink, PortalBrowser, seriousAccessibilityViolations } from './support/portal-browser';
import { WebhookReceiver } from './support/webhook-receiver';

/** The browser's zone, an hour or two off UTC, so a time taken as UTC would pick other deliveries. */
const ZONE = 'Europe/Berlin';
const HOUR = 3600_000;

/** What a datetime-local input in ZONE shows for the instant, to the minute. */
const inZone = (at: Date) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: ZONE, dateStyle: 'short', timeStyle: 'short' })
    .format(at)
    .replace(' ', 'T');

/** The portal in Chromium on the time filter, replaying failed deliveries, and signing out. */
describe('subscriber portal in a browser: time window, replay, sign out', () => {
  let world: DeliveryWorld, receiver: WebhookReceiver, browser: PortalBrowser;
  beforeAll(async () => {
    world = await startApiAndNotifier();
    receiver = await WebhookReceiver.start();
    browser = await PortalBrowser.launch('en-GB', ZONE);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await world?.stack.close();
  });
  afterEach(async () => {
    expect(browser.consoleErrors.splice(0)).toEqual([]);
    expect(browser.foreignHosts()).toEqual([]);
  });

  /** A tenant with an endpoint and a failed delivery three, two and one hour ago, and its portal open. */
  const tenantWithFailures = async () => {
    const tenant = await world.stack.createTenant();
    const endpoint = await createWebhookEndpoint(world.api.api, tenant.token, { url: receiver.url });
    const now = Date.now();
    const times = [3, 2, 1].map((hours) => new Date(now - hours * HOUR));
    const ids = await recordDeliveries(world.db, tenant.tenant, endpoint.id, times);
    const page = await browser.open(cliPortalLink(world.stack, world.api.url, tenant.tenant.code));
    return { tenant, endpoint, ids, now, page };
  };
  const dataRows = (page: Page) => page.locator('tbody tr');

  it('narrows the deliveries to a window picked in local time, kept in the URL', async () => {
    const { now, page } = await tenantWithFailures();
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await eventually(async () => (await dataRows(page).count()) === 3, { what: 'every delivery' });

    const from = inZone(new Date(now - 2.5 * HOUR));
    await page.getByLabel('From (local time)').fill(from);
    await page.getByLabel('To (local time)').fill(inZone(new Date(now - 0.5 * HOUR)));
    await eventually(async () => (await dataRows(page).count()) === 2, {
      what: 'the window to narrow the list',
    });
    const since = new Date(Math.floor((now - 2.5 * HOUR) / 60_000) * 60_000).toISOString();
    expect(new URL(page.url()).hash).toContain(`since=${encodeURIComponent(since)}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.reload();
    await expect(page.getByLabel('From (local time)').inputValue()).resolves.toBe(from);
    await eventually(async () => (await dataRows(page).count()) === 2, { what: 'the window after a reload' });
    await page.getByLabel('To (local time)').fill(inZone(new Date(now - 3 * HOUR)));
    await page.getByText('"To" must be after "From".').waitFor();
  }, 60_000);

  it("replays an endpoint's failed deliveries of a window from its page, after a confirmation", async () => {
    const { tenant, endpoint, ids, now, page } = await tenantWithFailures();
    await page.getByRole('link', { name: receiver.url }).first().click();
    await page.getByLabel('From (local time)').fill(inZone(new Date(now - 2.5 * HOUR)));
    await page.getByRole('button', { name: 'Replay failed deliveries' }).click();
    await page.getByText(/^Replay the failed deliveries created from .+ to now\?$/).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '2 failed deliveries queued again.' }).waitFor();

    const byId = new Map(
      (await listDeliveries(world.api.api, tenant.token, `?endpointId=${endpoint.id}`)).map((d) => [d.id, d]),
    );
    expect(ids.map((id) => byId.get(id)?.status === 'FAILED')).toEqual([true, false, false]);
    await page.getByRole('link', { name: 'Show them' }).click();
    await eventually(async () => (await dataRows(page).count()) === 2, { what: 'the replayed deliveries' });
  }, 60_000);

  it('signs out: a page says the session ended, and its cookie gets 401 from the API', async () => {
    const { page } = await tenantWithFailures();
    const cookie = (await browser.context.cookies()).find((c) => c.name === 'fincore_portal')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    await page.getByText('Your portal session has ended. To come back, open a new link.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect((await browser.context.cookies()).some((c) => c.name === 'fincore_portal')).toBe(false);

    const r = await world.api.api.get(
      '/api/v1/webhook-endpoints',
      asPortal(`${cookie.name}=${cookie.value}`),
    );
    expect(r.status).toBe(401);
  }, 60_000);
});
