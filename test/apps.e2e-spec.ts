import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import { OwnedPostgres, OwnedRedis } from './support/owned';
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
  ['credentials-api', CredentialsApiApp, 7, '/docs'],
  ['card-api', CardApiApp, 26, '/docs'],
  ['notification-api', NotificationApiApp, 24, '/portal/'],
])('%s', (_name, definition, operationCount, home) => {
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
    // A browser at the root is sent where a person starts: the docs, or the subscriber portal.
    const root = await fetch(`${sut.url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, home]);
  });
});

/**
 * A commit the app's own pool saw acknowledged, then PostgreSQL killed at once (no shutdown
 * checkpoint; what is only in its WAL buffers is gone) and started again. Its WAL writer sleeps
 * 10 s between rounds, so a commit that had not waited for the flush would be lost.
 */
describe('an acknowledged change and a crash of PostgreSQL', () => {
  let postgres: OwnedPostgres, redis: OwnedRedis, stack: TestStack;
  beforeAll(async () => {
    postgres = await OwnedPostgres.start({ wal_writer_delay: '10s' });
    redis = await OwnedRedis.start();
    stack = await TestStack.onOwnedServices(postgres, redis);
    await (await stack.db()).query('CREATE TABLE public.crash_probe (app text NOT NULL)');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await postgres?.close();
    await redis?.close();
  });

  it.each([
    ['credentials-api', CredentialsApiApp],
    ['card-api', CardApiApp],
    ['notification-api', NotificationApiApp],
  ])('%s commits waiting for the WAL flush: what it acknowledged survives', async (name, definition) => {
    const sut = await stack.startApp(definition);
    expect(await synchronousCommitOf(sut)).toBe('on');
    await sut.app.get(DataSource).query('INSERT INTO public.crash_probe (app) VALUES ($1)', [name]);
    await postgres.stop('immediate');
    await postgres.restart();
    await sut.close();
    expect(await probesAfterCrash(postgres, stack)).toContain(name);
  });
});

/** What the crash probe table holds, read on a fresh connection to the restarted server. */
async function probesAfterCrash(postgres: OwnedPostgres, stack: TestStack): Promise<string[]> {
  const client = new Client({ connectionString: postgres.url(stack.databaseName) });
  await client.connect();
  try {
    return (await client.query<{ app: string }>('SELECT app FROM public.crash_probe')).rows.map((r) => r.app);
  } finally {
    await client.end();
  }
}

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

  // That its work is redone after a crash is the PostgreSQL crash scenario of
  // test/faults/postgres-outage.faults-spec.ts.
  it('commits without waiting for the WAL flush (synchronous_commit off)', async () => {
    const sut = await stack.startApp(NotifierApp);
    expect(await synchronousCommitOf(sut)).toBe('off');
  });
});
