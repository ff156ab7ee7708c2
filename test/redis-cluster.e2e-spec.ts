import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ChangeStream, personRenames } from './faults/support/change-stream';
import { FAULT_SETTINGS } from './faults/support/fault-world';
import { committedEvents, DeliveryLedger } from './faults/support/ledger';
import { createPerson } from './support/builders/persons';
import { webhookTenant, WebhookTenant } from './support/builders/webhooks';
import { ApiClient, eventually } from './support/http';
import { OwnedRedisCluster } from './support/owned';
import { expectProblem } from './support/problems';
import { SpawnedApp, TestStack } from './support/stack';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

const cliMain = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');

/**
 * Every process on a Redis Cluster of the test's own (three masters, three replicas), with
 * REDIS_URL pointing nowhere: anything still connecting there would fail to start or be unready.
 */
describe('Redis Cluster', () => {
  let cluster: OwnedRedisCluster;
  let stack: TestStack;
  let receiver: WebhookReceiver;
  const apps: Record<string, SpawnedApp> = {};
  let credentials: ApiClient;
  let cards: ApiClient;
  let tenant: WebhookTenant;

  beforeAll(async () => {
    cluster = await OwnedRedisCluster.start();
    stack = await TestStack.create({
      ...FAULT_SETTINGS,
      REDIS_CLUSTER_NODES: cluster.seedNodes(),
      REDIS_URL: 'redis://127.0.0.1:1',
      // Only the revocation message can make an app forget a token it has seen.
      TOKEN_CACHE_SECONDS: '3600',
    });
    receiver = await WebhookReceiver.start();
    // One at a time: booting several apps at once on a busy machine outlasts their readiness wait.
    apps.credentials = await stack.spawnApp('credentials-api');
    apps.notifications = await stack.spawnApp('notification-api');
    apps.notifier = await stack.spawnApp('notifier');
    apps.cards = await stack.spawnApp('card-api', { RATE_LIMIT_MAX: '3' });
    credentials = new ApiClient(apps.credentials.url);
    cards = new ApiClient(apps.cards.url);
    tenant = await webhookTenant(stack, new ApiClient(apps.notifications.url), receiver.url);
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await receiver?.stop();
    await cluster?.close();
  });

  it('answers ready on every app, and Bull Board shows both queues', async () => {
    for (const app of Object.values(apps)) {
      expect((await fetch(`${app.url}/health/ready`)).status).toBe(200);
    }
    const board = await fetch(`${apps.notifier.url}/admin/queues/api/queues`, {
      headers: { authorization: `Basic ${Buffer.from('admin:test-password').toString('base64')}` },
    });
    expect(board.status).toBe(200);
    const { queues } = (await board.json()) as { queues: Array<{ name: string }> };
    expect(queues.map((q) => q.name).sort()).toEqual(['domain-events', 'webhook-deliveries']);
  });

  it('delivers a signed webhook for invalidated credentials', async () => {
    const person = await createPerson(credentials, tenant.token);
    const r = await credentials.post(
      '/api/v1/credentials/invalidate',
      { personId: person.personId, username: person.username, password: person.password },
      { token: tenant.token },
    );
    expect(r.status).toBe(200);

    const [webhook] = await receiver.waitFor(1, {
      filter: (w) => (w.json as any)?.data?.personId === person.personId,
    });
    const payload = verifyWebhook(webhook, tenant.endpoint.secret);
    expect(payload).toMatchObject({
      type: 'PERSON_UPDATED',
      data: { personId: person.personId, credentials: { status: 'INVALIDATED' } },
    });
  });

  it('counts requests in the cluster and answers 429 beyond the limit', async () => {
    const { token } = await stack.createTenant();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await cards.get('/api/v1/usage-groups', { token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  /** Revokes a fresh token the credentials API has cached, through the CLI; resolves once it is refused. */
  const expectRevocationHeard = async () => {
    const fixture = await stack.createTenant();
    const read = () => credentials.get('/api/v1/persons/nobody', { token: fixture.token });
    expect((await read()).status).toBe(404);

    const revoke = spawnSync(process.execPath, [cliMain, 'token:revoke', fixture.tokenEntity.id], {
      env: { PATH: process.env.PATH ?? '', ...stack.env },
      encoding: 'utf8',
    });
    expect(revoke.stderr).not.toContain('could not notify');
    expect(revoke.status).toBe(0);

    const refused = await eventually(
      async () => {
        const res = await read();
        return res.status === 401 && res;
      },
      { timeoutMs: 5_000, what: 'the revoked token to be refused' },
    );
    expectProblem(refused, 401, 'unauthenticated');
  };

  it('refuses a token once the CLI has revoked it and told the apps through the cluster', async () => {
    await expectRevocationHeard();
  });

  it('delivers every acknowledged change when the master of the queues dies and its replica takes over', async () => {
    const persons: string[] = [];
    for (let i = 0; i < 4; i++)
      persons.push((await createPerson(credentials, tenant.token, {}, 'cluster')).personId);
    const stream = new ChangeStream(() => credentials, tenant, persons, 100, personRenames).start();
    try {
      await eventually(() => stream.acknowledged.size >= 40, {
        timeoutMs: 20_000,
        what: '40 changes before the kill',
      });
      await cluster.killMaster(await cluster.masterServing(`{${stack.config.QUEUE_PREFIX}}`));
      const atPromotion = stream.acknowledged.size;
      await eventually(() => stream.acknowledged.size >= atPromotion + 40, {
        timeoutMs: 20_000,
        what: `40 changes after the failover (${JSON.stringify(Object.fromEntries(stream.statuses))})`,
      });
    } finally {
      await stream.stop();
    }

    const ledger = new DeliveryLedger(
      receiver,
      [{ path: `/${tenant.tenant.code}`, secret: tenant.endpoint.secret }],
      personRenames,
    );
    const commits = () => committedEvents(stack.env.DATABASE_URL, personRenames, persons);
    await ledger.waitForAll(commits, stream.acknowledged, 30_000);
    const { figures, missing } = ledger.figures(
      'Redis Cluster master killed',
      await commits(),
      stream.acknowledged,
      stream.statuses,
      0,
    );
    expect(stream.unexpectedStatuses()).toEqual({});
    expect(figures.unverified).toBe(0);
    expect(missing).toEqual([]);
    for (const app of Object.values(apps)) {
      expect((await fetch(`${app.url}/health/ready`)).status).toBe(200);
    }
    await expectRevocationHeard();
  }, 60_000);
});
