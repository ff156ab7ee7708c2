import type { AppDefinition } from '@fincore/platform';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { TestStack } from './support/stack';

/** Every API's Swagger UI, at each spelling of its address, and everything the page loads (the notifier serves none). */
describe('API docs', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(() => stack.close());

  it.each([CredentialsApiApp, CardApiApp, NotificationApiApp].map((d) => [d.name, d]))(
    '%s: /docs, /docs/ and /docs/index.html render the Swagger UI with working assets',
    async (_name: string, definition: AppDefinition) => {
      const sut = await stack.startApp(definition);
      for (const path of ['/docs', '/docs/', '/docs/index.html']) {
        const page = await fetch(`${sut.url}${path}`);
        expect({ path, status: page.status }).toEqual({ path, status: 200 });
        expect(new URL(page.url).pathname).toBe('/docs');
        expect(page.headers.get('content-type')).toContain('text/html');
        const html = await page.text();
        expect(html).toContain('<div id="swagger-ui">');

        const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], page.url));
        expect(assets.map((a) => a.pathname)).toEqual(
          expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui-init.js']),
        );
        const texts = new Map<string, string>();
        for (const asset of assets) {
          const r = await fetch(asset);
          expect({ path, asset: asset.pathname, status: r.status }).toEqual({
            path,
            asset: asset.pathname,
            status: 200,
          });
          texts.set(asset.pathname, await r.text());
        }
        expect(texts.get('/docs/swagger-ui-init.js')).toContain('"swaggerDoc"');
      }
      await sut.close();
    },
  );
});
