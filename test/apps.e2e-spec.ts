import { DataSource } from 'typeorm';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import type { RunningApp } from './support/stack';
import { TestStack } from './support/stack';

/** The /api/v1 operations the app's OpenAPI document lists, with path parameters filled in. */
async function apiOperations(sut: RunningApp): Promise<Array<{ method: string; path: string }>> {
  const doc = (await sut.api.get('/docs-json')).body;
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .filter(([path]) => path.startsWith('/api/v1'))
    .flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, 'x'),
      })),
    );
}

/** synchronous_commit of the sessions in the app's own pool. */
async function synchronousCommitOf(sut: RunningApp): Promise<string> {
  const [row] = await sut.app.get(DataSource).query('SHOW synchronous_commit');
  return row.synchronous_commit;
}

/** Contracts every app keeps, checked on the real apps with every route they have. */
describe.each([
  // How many operations each app has: a route the document loses would otherwise go unchecked.
  ['credentials-api', CredentialsApiApp, 6],
  ['card-api', CardApiApp, 26],
  ['notification-api', NotificationApiApp, 17],
])('%s', (_name, definition, operationCount) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(() => stack.close());

  it('answers every /api/v1 route without a token with 401 problem+json, in German when asked', async () => {
    const sut = await stack.startApp(definition);
    const operations = await apiOperations(sut);
    expect(operations).toHaveLength(operationCount);
    for (const { method, path } of operations) {
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
      const r = await sut.api.request(method, path, { body, headers: { 'accept-language': 'de' } });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 401 });
      expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(r.body.title).toBe('Authentifizierung erforderlich');
    }
    expect((await sut.api.get('/health/ready')).status).toBe(200);
  });

  it('commits waiting for the WAL flush: an acknowledged change survives a crash', async () => {
    const sut = await stack.startApp(definition);
    expect(await synchronousCommitOf(sut)).toBe('on');
  });
});

describe('notifier', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(() => stack.close());

  it('has no /api/v1 route, so none escapes the token check above, serves no API docs, and is ready', async () => {
    const sut = await stack.startApp(NotifierApp);
    const routes = sut.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false });
    expect(routes).toContain('health/ready');
    expect(routes).not.toContain('api/v1');
    expect((await sut.api.get('/docs-json')).status).toBe(404);
    expect((await sut.api.get('/health/ready')).status).toBe(200);
  });

  it('commits without waiting for the WAL flush: what it writes is redone after a crash', async () => {
    const sut = await stack.startApp(NotifierApp);
    expect(await synchronousCommitOf(sut)).toBe('off');
  });
});
