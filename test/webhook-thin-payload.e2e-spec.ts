import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { NotifierApp } from '../apps/notifier/src/app.definition';
import { authenticatePerson } from './support/builders/persons';
import { createWebhookEndpoint, enableNotifications } from './support/builders/webhooks';
import { markedPerson, markersIn } from './support/erasure';
import { eventually, expectStatus } from './support/http';
import { expectProblem } from './support/problems';
import { RunningApp, TenantFixture, TestStack } from './support/stack';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/** An endpoint with payload THIN gets ids and changed field names, never a person's data. */
describe('webhook endpoints: THIN payload', () => {
  let stack: TestStack, people: RunningApp, notifications: RunningApp, receiver: WebhookReceiver;
  let acme: TenantFixture;
  beforeAll(async () => {
    stack = await TestStack.create();
    people = await stack.startApp(CredentialsApiApp);
    notifications = await stack.startApp(NotificationApiApp);
    await stack.startApp(NotifierApp);
    receiver = await WebhookReceiver.start();
    acme = await stack.createTenant();
    for (const type of ['PERSON_UPDATED', 'PERSON_ERASED'])
      await enableNotifications(notifications.api, acme.token, type);
  });
  afterAll(async () => {
    await receiver.stop();
    await stack.close();
  });

  const endpointsApi = '/api/v1/webhook-endpoints';

  it('is FULL by default, and THIN when asked, on creation, read and change', async () => {
    const { token } = acme;
    const full = await createWebhookEndpoint(notifications.api, token, { url: `${receiver.url}/default` });
    expect(full.payload).toBe('FULL');
    const thin = await createWebhookEndpoint(notifications.api, token, {
      url: `${receiver.url}/t`,
      payload: 'THIN',
    });
    expect(thin.payload).toBe('THIN');
    expect((await notifications.api.get(`${endpointsApi}/${thin.id}`, { token })).body.payload).toBe('THIN');
    const changed = await notifications.api.patch(
      `${endpointsApi}/${full.id}`,
      { payload: 'THIN' },
      { token },
    );
    expect(expectStatus(changed, 200, 'change the payload').body.payload).toBe('THIN');
    const wrong = await notifications.api.patch(`${endpointsApi}/${full.id}`, { payload: 'SLIM' }, { token });
    expectProblem(wrong, 400, 'validation_failed');
    expect(wrong.body.errors).toEqual([expect.objectContaining({ field: 'payload' })]);
    expect((await notifications.api.get(`${endpointsApi}/${full.id}`, { token })).body.payload).toBe('THIN');
    for (const { id } of [full, thin]) {
      expectStatus(await notifications.api.delete(`${endpointsApi}/${id}`, { token }), 204, 'delete');
    }
  });

  it('never sends a marker of the person to a THIN endpoint, signed and ordered as any other', async () => {
    const { token } = acme;
    const endpoint = await createWebhookEndpoint(notifications.api, token, {
      url: `${receiver.url}/thin`,
      payload: 'THIN',
      ordering: 'SUBJECT',
    });
    const { person, markers } = markedPerson();
    expectStatus(await people.api.post('/api/v1/persons', person, { token }), 201, 'create');
    const path = `/api/v1/persons/${person.personId}`;
    const lastName = `${person.lastName}x`;
    markers.push(lastName);
    expectStatus(await people.api.patch(path, { lastName }, { token }), 200, 'rename');
    const proof = { personId: person.personId, username: person.username, password: person.password };
    expectStatus(
      await people.api.post('/api/v1/credentials/invalidate', proof, { token }),
      200,
      'invalidate',
    );
    expect((await authenticatePerson(people.api, token, person)).status).toBe(401);
    expectStatus(await people.api.post(`${path}/erase`, undefined, { token }), 200, 'erase');

    // At least once: a webhook may come twice (same webhook-id); each event counts at its first arrival.
    const firstArrivals = () => {
      const thin = receiver.received.filter((w) => w.path === '/thin');
      return thin.filter(
        (w, i) => thin.findIndex((o) => o.headers['webhook-id'] === w.headers['webhook-id']) === i,
      );
    };
    const webhooks = await eventually(() => firstArrivals().length >= 3 && firstArrivals(), {
      what: 'three THIN webhooks',
    });
    expect(markersIn(webhooks.map((w) => w.body).join('\n'), markers)).toEqual([]);
    const envelopes = webhooks.map((w) => verifyWebhook(w, endpoint.secret));
    expect(envelopes.map((e) => [e.type, e.sequence, e.data])).toEqual([
      ['PERSON_UPDATED', 1, { personId: person.personId, changedFields: ['lastName'] }],
      [
        'PERSON_UPDATED',
        2,
        { personId: person.personId, changedFields: ['credentials.status', 'credentials.invalidatedAt'] },
      ],
      ['PERSON_ERASED', 3, { personId: person.personId }],
    ]);
    for (const e of envelopes) {
      expect(Object.keys(e).sort()).toEqual([
        'data',
        'id',
        'occurredAt',
        'sequence',
        'subject',
        'tenantCode',
        'type',
      ]);
      expect(e.subject).toEqual({ type: 'person', id: person.personId });
    }
    expect(webhooks.map((w) => w.headers['webhook-id'])).toEqual(envelopes.map((e) => e.id));
  });
});
