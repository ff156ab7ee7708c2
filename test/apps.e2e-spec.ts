import { CardApiApp } from '../apps/card-api/src/app.definition';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import { TestStack } from './support/stack';

/** Contracts every app keeps, checked on the real apps with every route they have. */
describe.each([
  ['credentials-api', CredentialsApiApp],
  ['card-api', CardApiApp],
  ['notification-api', NotificationApiApp],
  ['notifier', NotifierApp],
])('%s', (_name, definition) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(() => stack.close());

  it('answers every /api/v1 route without a token with 401 problem+json, in German when asked', async () => {
    const sut = await stack.startApp(definition);
    const doc = (await sut.api.get('/docs-json')).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/api/v1'))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => ({
          method: method.toUpperCase(),
          path: path.replace(/\{[^}]+\}/g, 'x'),
        })),
      );
    for (const { method, path } of operations) {
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
      const r = await sut.api.request(method, path, { body, headers: { 'accept-language': 'de' } });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 401 });
      expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(r.body.title).toBe('Authentifizierung erforderlich');
    }
    expect((await sut.api.get('/health/ready')).status).toBe(200);
  });
});
