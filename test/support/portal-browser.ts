import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { createPortalLink } from './builders/portal';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from './chromium';
import type { RunningApp, TestStack } from './stack';

const CLI = join(__dirname, '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js');

/**
 * The portal's screenshots: into docs/portal (referenced by docs/portal.md) with
 * UPDATE_SCREENSHOTS=1, else beside the other test artifacts, so a test run leaves the docs alone.
 */
export const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(__dirname, '..', '..', 'docs', 'portal')
    : join(__dirname, '..', 'artifacts', 'portal');

/**
 * Debian's Chromium, headless, with a fresh profile (nothing cached from an earlier run can hide a
 * request to another host), speaking the given language; records every host it asks, every
 * console error and every uncaught page error.
 */
export class PortalBrowser {
  readonly hosts = new Set<string>();
  readonly consoleErrors: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    private readonly profile: string,
  ) {
    context.on('request', (request) => this.hosts.add(new URL(request.url()).hostname));
    context.on('page', (page) => this.watch(page));
  }

  /** In the given language and time zone (the machine's unless given). */
  static async launch(locale = 'en-GB', timezoneId?: string): Promise<PortalBrowser> {
    requireChromium();
    const profile = mkdtempSync(join(tmpdir(), 'fincore-portal-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      locale,
      timezoneId,
      viewport: { width: 1280, height: 900 },
      args: CHROMIUM_ARGS,
    });
    return new PortalBrowser(context, profile);
  }

  private watch(page: Page): void {
    page.setDefaultTimeout(15_000);
    page.on(
      'console',
      (m) => void (m.type() === 'error' && this.consoleErrors.push(`${page.url()}: ${m.text()}`)),
    );
    page.on('pageerror', (e) => this.consoleErrors.push(`${page.url()}: ${e.message}`));
  }

  async newPage(): Promise<Page> {
    return this.context.newPage();
  }

  /** A new page that opens the portal link, once it has arrived at the portal. */
  async open(link: string): Promise<Page> {
    const page = await this.newPage();
    await page.goto(link);
    await page.waitForURL('**/portal/');
    return page;
  }

  /** Hosts other than this machine's that the browser asked anything of. */
  foreignHosts(): string[] {
    return [...this.hosts].filter((h) => h !== '127.0.0.1' && h !== 'localhost');
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/** A portal link from the operator CLI (built by `npm run build`) for the tenant, on the app's address. */
export function cliPortalLink(
  stack: TestStack,
  appUrl: string,
  tenantCode: string,
  ...flags: string[]
): string {
  const r = spawnSync(process.execPath, [CLI, 'portal:link', '--tenant', tenantCode, ...flags], {
    env: { PATH: process.env.PATH ?? '', ...stack.env },
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  const { pathname, search } = new URL(r.stdout.trim());
  return `${appUrl}${pathname}${search}`;
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Saves the page for the docs, once axe has nothing serious to say about it. */
export async function checkAndShoot(page: Page, name: string): Promise<void> {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  expect({ page: name, width: await widthOnAPhone(page) }).toEqual({ page: name, width: PHONE.width });
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const PHONE = { width: 360, height: 740 };

/** How wide the page lays out on a 360 px screen: wider means the page scrolls sideways. */
async function widthOnAPhone(page: Page): Promise<number> {
  const size = page.viewportSize();
  await page.setViewportSize(PHONE);
  const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
  if (size) await page.setViewportSize(size);
  return width;
}

/** A new page on a read-write portal session of the token's tenant, opened from a link the API gave. */
export async function openPortal(browser: PortalBrowser, app: RunningApp, token: string): Promise<Page> {
  const { pathname, search } = new URL((await createPortalLink(app.api, token)).url);
  return browser.open(`${app.url}${pathname}${search}`);
}
