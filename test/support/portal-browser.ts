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
  expect({ page: name, missedByTab: await missedByKeyboard(page) }).toEqual({ page: name, missedByTab: [] });
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

/**
 * The page's visible controls that Tab never reaches from the top, and what answers the mouse
 * (a pointer cursor) without being a control a keyboard can reach: a page that works by keyboard
 * has neither. Each control is marked, then Tab is pressed until focus has passed them all.
 */
async function missedByKeyboard(page: Page): Promise<string[]> {
  // What a closed <details> holds beyond its summary is hidden until it is opened.
  const HIDDEN = `(e) => !e.getClientRects().length ||
    (!!e.closest('details:not([open])') && !e.closest('details:not([open])').querySelector(':scope > summary')?.contains(e))`;
  const count = Number(
    await page.evaluate(`(() => {
      const hidden = ${HIDDEN};
      const controls = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
        .filter((e) => !e.disabled && e.tabIndex >= 0 && !hidden(e));
      controls.forEach((e, i) => e.setAttribute('data-tab-check', String(i)));
      // Tab goes on from where focus was last: start it before the first control.
      const start = document.createElement('span');
      start.tabIndex = -1;
      start.id = 'tab-check-start';
      document.body.prepend(start);
      start.focus();
      return controls.length;
    })()`),
  );
  // A date and time input takes a Tab per field: press on until every control had focus, or
  // well past the point where it would have.
  const reached = new Set<string>();
  for (let i = 0; i < 8 * count + 8 && reached.size < count; i++) {
    await page.keyboard.press('Tab');
    const mark = await page.evaluate(`document.activeElement?.getAttribute('data-tab-check')`);
    if (typeof mark === 'string') reached.add(mark);
  }
  const describe = `(e) => e.tagName.toLowerCase() + ' "' + (e.textContent || e.getAttribute('aria-label') || e.name || '').trim().slice(0, 40) + '"'`;
  return (await page.evaluate(`(() => {
    const reached = new Set(${JSON.stringify([...reached])});
    const describe = ${describe};
    const hidden = ${HIDDEN};
    const missed = [...document.querySelectorAll('[data-tab-check]')]
      .filter((e) => !reached.has(e.getAttribute('data-tab-check'))).map(describe);
    const pointerOnly = [...document.querySelectorAll('body *')]
      .filter((e) => getComputedStyle(e).cursor === 'pointer' && !e.closest('[data-tab-check], label') && !hidden(e))
      .map((e) => 'pointer only: ' + describe(e));
    document.querySelectorAll('[data-tab-check]').forEach((e) => e.removeAttribute('data-tab-check'));
    document.getElementById('tab-check-start')?.remove();
    return [...missed, ...pointerOnly];
  })()`)) as string[];
}

/** A new page on a read-write portal session of the token's tenant, opened from a link the API gave. */
export async function openPortal(browser: PortalBrowser, app: RunningApp, token: string): Promise<Page> {
  const { pathname, search } = new URL((await createPortalLink(app.api, token)).url);
  return browser.open(`${app.url}${pathname}${search}`);
}
