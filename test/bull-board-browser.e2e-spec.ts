import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { type BrowserContext, chromium } from 'playwright-core';
import { QueueName } from '@fincore/events';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from './support/chromium';
import {
  DeliveryWorld,
  listDeliveries,
  startApiAndNotifier,
  webhookTenant,
} from './support/builders/webhooks';
import { eventually } from './support/http';
import { commitPersonUpdated } from './support/outbox';
import { WebhookReceiver } from './support/webhook-receiver';

const ARTIFACTS = join(__dirname, 'artifacts');

/**
 * Bull Board as an operator sees it: Debian's Chromium, headless, logged in with the board's
 * password, on a machine where nothing but the notifier answers.
 */
describe('notifier: Bull Board in a browser', () => {
  let world: DeliveryWorld, receiver: WebhookReceiver, browser: BrowserContext, profile: string;
  beforeAll(async () => {
    requireChromium();
    world = await startApiAndNotifier();
    receiver = (await WebhookReceiver.start()).setDefault({ status: 500 });
    profile = mkdtempSync(join(tmpdir(), 'fincore-chromium-'));
    // A fresh profile: nothing cached from an earlier run can hide a request to another host.
    const { BULL_BOARD_USERNAME: username, BULL_BOARD_PASSWORD: password } = world.stack.config;
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      httpCredentials: { username, password: password! },
      args: CHROMIUM_ARGS,
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await receiver?.stop();
    await world?.stack.close();
  });

  it('shows both queues and a failed delivery job with its error, loading nothing from elsewhere', async () => {
    // A delivery the receiver refuses: its state lives in PostgreSQL, and its job (id = delivery
    // id) completes once the retry schedule is spent.
    const f = await webhookTenant(world.stack, world.api.api, receiver.url);
    await commitPersonUpdated(world.db, f.tenant.code);
    const refused = await eventually(
      async () => (await listDeliveries(world.api.api, f.token)).find((d) => d.status === 'FAILED'),
      { what: 'the delivery to fail at the receiver' },
    );
    // A job fails when the worker itself cannot process it, e.g. one naming no delivery.
    const queue = world.notifier.app.get<Queue>(getQueueToken(QueueName.WebhookDeliveries));
    const broken = await queue.add('deliver', { deliveryId: 'not-a-delivery-id' }, { attempts: 1 });
    await eventually(async () => (await broken.getState()) === 'failed', { what: 'the job to fail' });

    const hosts = new Set<string>();
    const refusals: string[] = [];
    browser.on('request', (request) => hosts.add(new URL(request.url()).hostname));
    browser.on('response', (r) => void (r.status() >= 400 && refusals.push(`${r.status()} ${r.url()}`)));
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const board = `${world.notifier.url}/admin/queues`;
    expect((await page.goto(`${board}/`))?.status()).toBe(200);
    const queues = page.getByRole('navigation');
    await queues.getByRole('link', { name: QueueName.DomainEvents }).waitFor();
    await queues.getByRole('link', { name: QueueName.WebhookDeliveries }).click();
    await page.getByRole('link', { name: 'FAILED' }).click();
    await page.getByRole('link', { name: `#${broken.id} deliver` }).click();
    await page.waitForURL(`**/queue/${QueueName.WebhookDeliveries}/${broken.id}**`);
    await page.getByText('invalid input syntax for type uuid').waitFor();
    // The board's typeface was loaded, from the notifier: no fallback font.
    const plexLoaded = `document.fonts.ready.then((fonts) =>
      [...fonts].some((f) => f.family.replaceAll('"', '') === 'IBM Plex Sans' && f.status === 'loaded'))`;
    await expect(page.evaluate(plexLoaded)).resolves.toBe(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'bull-board-failed-job.png'), fullPage: true });
    await page.getByRole('tab', { name: 'Data' }).click();
    await page.getByText('not-a-delivery-id').waitFor();

    // The refused delivery's job, found by the delivery id an operator has from the API.
    await page.goto(`${board}/queue/${QueueName.WebhookDeliveries}/${refused.id}`);
    // The first attempt is made right after fan-out; the job holds one run per retry, back to
    // delayed between them.
    await page.getByText(`${refused.attemptCount - 1} started`).waitFor();
    await expect(page.getByText(refused.id).count()).resolves.toBeGreaterThanOrEqual(2);

    expect(refusals).toEqual([]);
    expect(hosts.size).toBeGreaterThan(0);
    expect([...hosts].filter((host) => host !== '127.0.0.1' && host !== 'localhost')).toEqual([]);
  }, 60_000);
});
