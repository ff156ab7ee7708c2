import { existsSync } from 'node:fs';

/** Debian's Chromium, which the browser tests drive through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless, and quiet: no request of its own to any host (updates, sync, QUIC probes). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
  }
}
