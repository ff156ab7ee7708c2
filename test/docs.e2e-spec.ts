import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { EVENT_TYPES } from '@fincore/events';
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

  it('notification-api serves the AsyncAPI document of its webhooks, without a token; other APIs do not', async () => {
    const sut = await stack.startApp(NotificationApiApp);
    const r = await fetch(`${sut.url}/docs/asyncapi.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    const text = await r.text();
    const document = JSON.parse(text);
    expect(document.asyncapi).toBe('3.0.0');
    expect(Object.keys(document.components.messages).sort()).toEqual([...EVENT_TYPES].sort());
    const { diagnostics } = await new Parser().parse(text);
    const serious = diagnostics.filter((d) => d.severity <= DiagnosticSeverity.Warning);
    expect(serious.map((d) => `${d.code} ${d.path.join('.')}: ${d.message}`)).toEqual([]);
    // The Swagger UI's own assets under /docs/ are still served beside it.
    expect((await fetch(`${sut.url}/docs/swagger-ui-init.js`)).status).toBe(200);
    await sut.close();

    const cards = await stack.startApp(CardApiApp);
    expect((await fetch(`${cards.url}/docs/asyncapi.json`)).status).toBe(404);
    await cards.close();
  });
});
