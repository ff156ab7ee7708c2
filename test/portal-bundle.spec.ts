import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUILD = join(__dirname, '..', 'dist', 'apps', 'portal');
/** What a subscriber's browser downloads, compressed, before the portal shows anything. */
const FIRST_LOAD_LIMIT = 250 * 1024;

/** The portal's build output, as `npm run build` leaves it (npm test builds first). */
describe('portal build', () => {
  const page = readFileSync(join(BUILD, 'index.html'), 'utf8');
  const assets = [...page.matchAll(/(?:src|href)="\/portal\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);

  it('loads at most 250 KB of compressed JS and CSS first', () => {
    expect(assets.length).toBeGreaterThanOrEqual(2);
    const compressed = assets.reduce((sum, a) => sum + gzipSync(readFileSync(join(BUILD, a))).length, 0);
    expect(compressed).toBeLessThanOrEqual(FIRST_LOAD_LIMIT);
  });

  it('has no inline script or style, and names every asset after its content', () => {
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/<style|style="/);
    for (const asset of assets) expect(asset).toMatch(/^assets\/[\w-]+-[\w-]{8}\.(js|css)$/);
  });
});
