import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { authenticatePerson, createPerson, personInput, PersonInput } from './support/builders/persons';
import { createWebhookEndpoint, enableNotifications, listDeliveries } from './support/builders/webhooks';
import { dumpDatabase, dumpRedis, markedPerson, markersIn } from './support/erasure';
import { ApiClient, ApiResponse, eventually, expectStatus } from './support/http';
import { expectProblem } from './support/problems';
import { SpawnedApp, TenantFixture, TestStack } from './support/stack';
import { ReceivedWebhook, verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/**
 * Erasing a person, proven on every store: a person whose every personal field holds a marker is
 * changed, notified (an echoing receiver that fails once, one that fails for good and gets a
 * replay, one that holds a delivery pending across the erasure), created with an Idempotency-Key,
 * and erased; then no row of the database, no Redis key under the stack's prefix and no line the
 * three processes logged holds a marker.
 */
describe('erasing a person', () => {
  let stack: TestStack, redis: Redis, receiver: WebhookReceiver;
  let apps: SpawnedApp[];
  let people: ApiClient, notifications: ApiClient, acme: TenantFixture;
  const { person, markers } = markedPerson();
  const endpoints: Record<'echo' | 'replayed' | 'pending', { id: string; secret: string }> = {} as never;
  let erasure: ApiResponse, erasedAt: number;

  const personPath = `/api/v1/persons/${person.personId}`;
  const erase = (personId: string, token = acme.token, key = 'erase-key-1') =>
    people.post(`/api/v1/persons/${personId}/erase`, undefined, {
      token,
      headers: { 'idempotency-key': key },
    });
  const settled = (status: string) => async () => {
    const deliveries = await listDeliveries(notifications, acme.token, '?limit=100');
    return deliveries.length > 0 && deliveries.every((d) => d.status === status) && deliveries;
  };

  beforeAll(async () => {
    stack = await TestStack.create();
    redis = stack.redis();
    apps = await Promise.all(
      (['credentials-api', 'notification-api', 'notifier'] as const).map((name) =>
        stack.spawnApp(name, { LOG_LEVEL: 'trace' }),
      ),
    );
    [people, notifications] = [new ApiClient(apps[0].url), new ApiClient(apps[1].url)];
    acme = await stack.createTenant();
    for (const type of ['PERSON_UPDATED', 'PERSON_ERASED'])
      await enableNotifications(notifications, acme.token, type);
    receiver = (await WebhookReceiver.start()).setDefault({ status: 200, echo: true });
    // The echoing receiver fails the first attempt; the second gets through.
    receiver.respondWithFor('/echo', { status: 500, echo: true });
    receiver.setDefaultFor('/replayed', { status: 500, echo: true });
    for (const name of ['echo', 'replayed', 'pending'] as const) {
      endpoints[name] = await createWebhookEndpoint(notifications, acme.token, {
        url: `${receiver.url}/${name}`,
      });
    }

    // The kept answer of an idempotent creation carries the profile.
    const create = () =>
      people.post('/api/v1/persons', person, {
        token: acme.token,
        headers: { 'idempotency-key': 'create-1' },
      });
    expectStatus(await create(), 201, 'create the marked person');
    expect((await create()).headers.get('idempotent-replayed')).toBe('true');
    const changes = { lastName: `${person.lastName}b`, email: `b${person.email}` };
    markers.push(changes.lastName, changes.email);
    expectStatus(await people.patch(personPath, changes, { token: acme.token }), 200, 'rename');
    const proof = { personId: person.personId, username: person.username, password: person.password };
    expectStatus(
      await people.post('/api/v1/credentials/invalidate', proof, { token: acme.token }),
      200,
      'invalidate',
    );
    // New credentials after the invalidation: the erasure must end these.
    Object.assign(person, { password: `mk renewed ${person.password}` });
    markers.push(person.password);
    const renewed = { username: person.username, password: person.password };
    expectStatus(await people.put(`${personPath}/credentials`, renewed, { token: acme.token }), 200, 'renew');
    expectStatus(await authenticatePerson(people, acme.token, person), 200, 'authenticate');

    // Both events reach every endpoint; the failing one's deliveries end FAILED and are replayed.
    await eventually(
      async () =>
        (
          await listDeliveries(
            notifications,
            acme.token,
            `?status=FAILED&endpointId=${endpoints.replayed.id}`,
          )
        ).length === 3,
      { timeoutMs: 20_000, what: 'the failing endpoint’s deliveries to fail' },
    );
    receiver.setDefaultFor('/replayed', { status: 200, echo: true });
    const since = new Date(Date.now() - 600_000).toISOString();
    const replay = await notifications.post(
      `/api/v1/webhook-endpoints/${endpoints.replayed.id}/replay`,
      { since },
      { token: acme.token },
    );
    expect(replay.body).toEqual({ endpointId: endpoints.replayed.id, replayed: 3 });
    await eventually(settled('SUCCEEDED'), { timeoutMs: 20_000, what: 'every delivery to succeed' });

    // A third change whose delivery to one endpoint waits (503, Retry-After) across the erasure.
    receiver.setDefaultFor('/pending', { status: 503, headers: { 'retry-after': '4' }, echo: true });
    const phone = `+8${person.phone!.slice(2)}`;
    markers.push(phone);
    expectStatus(await people.patch(personPath, { phone }, { token: acme.token }), 200, 'change the phone');
    await receiver.waitFor(1, { filter: (w) => w.path === '/pending' && w.answeredWith === 503 });

    // The markers went out in webhooks, and the database holds them: what the erasure must undo.
    const sent = [person.firstName!, changes.lastName, changes.email, phone];
    expect(markersIn(receiver.received.map((w) => w.body).join('\n'), markers)).toEqual(
      expect.arrayContaining(sent),
    );
    expect(markersIn(await dumpDatabase(stack), markers)).toEqual(expect.arrayContaining(sent));

    erasure = await erase(person.personId);
    erasedAt = Date.now();
    receiver.setDefaultFor('/pending', null);
  }, 90_000);
  afterAll(async () => {
    await receiver?.stop();
    await stack.close();
  });

  it('answers the erasure record, and a repeat, with or without the same key, as the first', async () => {
    expectStatus(erasure, 200, 'erase');
    expect(erasure.body).toEqual({
      personId: person.personId,
      status: 'ERASED',
      erasedAt: expect.any(String),
      erasedByTokenId: acme.tokenEntity.id,
      requestId: erasure.headers.get('x-request-id'),
    });
    const replayed = await erase(person.personId);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(erasure.body);
    expect((await erase(person.personId, acme.token, 'erase-key-2')).body).toEqual(erasure.body);
  });

  it('leaves nothing of the person to read, change or authenticate, and the username taken', async () => {
    const { token } = acme;
    expectProblem(await people.get(personPath, { token }), 410, 'person_erased');
    expectProblem(await people.patch(personPath, { firstName: 'New' }, { token }), 410, 'person_erased');
    const credentials = { username: 'someone.else', password: 'a fresh passphrase 2' };
    expectProblem(
      await people.put(`${personPath}/credentials`, credentials, { token }),
      410,
      'person_erased',
    );
    expect((await authenticatePerson(people, token, person)).status).toBe(401);
    const invalidation = { personId: person.personId, username: person.username, password: person.password };
    expectProblem(
      await people.post('/api/v1/credentials/invalidate', invalidation, { token }),
      422,
      'invalid_credentials',
    );
    const newcomer = personInput({ username: person.username.toUpperCase() });
    expectProblem(await people.post('/api/v1/persons', newcomer, { token }), 409, 'username_taken');
    // The kept answer of the creation is gone: its retry runs again, and the id stays taken.
    const retry = await people.post('/api/v1/persons', person, {
      token: acme.token,
      headers: { 'idempotency-key': 'create-1' },
    });
    expectProblem(retry, 409, 'person_exists');
  });

  it('answers 404 for an unknown person and for another tenant’s, erasing nothing', async () => {
    const other = await stack.createTenant();
    const theirs: PersonInput = await createPerson(people, other.token, { firstName: 'Theirs' });
    expectProblem(await erase(`nobody-${randomUUID()}`, acme.token, 'erase-nobody'), 404, 'person_not_found');
    expectProblem(await erase(theirs.personId, acme.token, 'erase-theirs'), 404, 'person_not_found');
    expect(
      (await people.get(`/api/v1/persons/${theirs.personId}`, { token: other.token })).body.firstName,
    ).toBe('Theirs');
  });

  it('tells subscribers with a signed PERSON_ERASED that carries the id and time only', async () => {
    const [webhook] = await receiver.waitFor(1, {
      filter: (w) => w.path === '/echo' && w.json?.type === 'PERSON_ERASED',
    });
    const verified = verifyWebhook(webhook, endpoints.echo.secret);
    expect(verified.data).toEqual({ personId: person.personId, erasedAt: erasure.body.erasedAt });
    expect(verified.subject).toEqual({ type: 'person', id: person.personId });
    expect(markersIn(webhook.body, markers)).toEqual([]);
  });

  it('sends the erased event to a delivery pending across the erasure', async () => {
    const [late] = await receiver.waitFor(1, {
      filter: (w) =>
        w.path === '/pending' &&
        w.answeredWith === 200 &&
        w.json?.type === 'PERSON_UPDATED' &&
        w.receivedAt.getTime() >= erasedAt,
      timeoutMs: 20_000,
    });
    expect(late.json.data).toMatchObject({ personId: person.personId, erased: true });
    expect(late.json.data.person).toBeUndefined();
    expect(markersIn(late.body, markers)).toEqual([]);
  });

  it('leaves no marker in the database, in Redis or in any log line', async () => {
    await eventually(settled('SUCCEEDED'), { timeoutMs: 20_000, what: 'every delivery to succeed' });
    const database = await dumpDatabase(stack);
    expect(database).toContain(person.personId);
    expect(markersIn(database, markers)).toEqual([]);
    const keys = await dumpRedis(redis, `{${stack.env.QUEUE_PREFIX}}`);
    expect(keys).toContain('completed');
    expect(markersIn(keys, markers)).toEqual([]);
    // The capture is real: each process logged the requests it served or the webhooks it sent.
    expect(apps[0].output()).toContain(`"path":"${personPath}/erase"`);
    expect(apps[1].output()).toContain('"route":"/api/v1/webhook-endpoints/:endpointId/replay"');
    expect(apps[2].output()).toContain('"app":"notifier"');
    for (const app of apps) expect(markersIn(app.output(), markers)).toEqual([]);
    const afterErasure = receiver.received.filter((w: ReceivedWebhook) => w.receivedAt.getTime() >= erasedAt);
    expect(markersIn(afterErasure.map((w) => w.body).join('\n'), markers)).toEqual([]);
  });
});
