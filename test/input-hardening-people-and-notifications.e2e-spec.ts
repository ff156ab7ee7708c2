import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { AppWorld, startAppWorld } from './support/app-world';
import { createPerson, personInput } from './support/builders/persons';
import { createWebhookEndpoint } from './support/builders/webhooks';
import { itRefusesEach, LONE_SURROGATE_TEXT, NUL_TEXT } from './support/refusals';

// Input that once reached PostgreSQL as a 500: control characters and unpaired surrogates in free
// text, integers beyond int4, instants and cursors outside what a timestamptz holds.

const forgedCursor = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const A_UUID = '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60';

describe('credentials-api: free text PostgreSQL would fail on', () => {
  let world: AppWorld;
  let personId: string;
  beforeAll(async () => {
    world = await startAppWorld(CredentialsApiApp);
    personId = (await createPerson(world.sut.api, world.token)).personId;
  });
  afterAll(() => world.stack.close());

  itRefusesEach(
    () => world,
    ['credentials.persons'],
    [
      {
        what: 'NUL in a first name',
        method: 'POST',
        path: () => '/api/v1/persons',
        body: () => personInput({ firstName: NUL_TEXT }),
        field: 'firstName',
      },
      {
        what: 'an unpaired surrogate in a last name',
        method: 'POST',
        path: () => '/api/v1/persons',
        body: () => personInput({ lastName: LONE_SURROGATE_TEXT }),
        field: 'lastName',
      },
      {
        what: 'an unpaired surrogate in a new password',
        method: 'POST',
        path: () => '/api/v1/persons',
        body: () => personInput({ password: `a long passphrase ${LONE_SURROGATE_TEXT}` }),
        field: 'password',
      },
      {
        what: 'a control character in a changed first name',
        method: 'PATCH',
        path: () => `/api/v1/persons/${personId}`,
        body: () => ({ firstName: 'a\u0007b' }),
        field: 'firstName',
      },
      {
        what: 'NUL in a username to authenticate',
        method: 'POST',
        path: () => '/api/v1/credentials/authenticate',
        body: () => ({ username: NUL_TEXT, password: 'whatever it is' }),
        field: 'username',
      },
      {
        what: 'NUL in a person id to invalidate',
        method: 'POST',
        path: () => '/api/v1/credentials/invalidate',
        body: () => ({ personId: NUL_TEXT, username: 'someone', password: 'whatever it is' }),
        field: 'personId',
      },
    ],
  );
});

describe('notification-api: text, integers, instants and cursors PostgreSQL would fail on', () => {
  let world: AppWorld;
  let endpointId: string;
  beforeAll(async () => {
    world = await startAppWorld(NotificationApiApp);
    endpointId = (await createWebhookEndpoint(world.sut.api, world.token, { url: 'http://127.0.0.1:9/hook' }))
      .id;
  });
  afterAll(() => world.stack.close());

  const tables = ['notifications.webhook_endpoints', 'notifications.webhook_deliveries'];
  const deliveries = (query: string) => () => `/api/v1/webhook-deliveries?${query}`;

  itRefusesEach(() => world, tables, [
    {
      what: 'NUL in an endpoint description',
      method: 'POST',
      path: () => '/api/v1/webhook-endpoints',
      body: () => ({ url: 'http://127.0.0.1:9/a', description: NUL_TEXT }),
      field: 'description',
    },
    {
      what: 'an unpaired surrogate in an endpoint description',
      method: 'POST',
      path: () => '/api/v1/webhook-endpoints',
      body: () => ({ url: 'http://127.0.0.1:9/b', description: LONE_SURROGATE_TEXT }),
      field: 'description',
    },
    {
      what: 'NUL in an endpoint URL',
      method: 'POST',
      path: () => '/api/v1/webhook-endpoints',
      body: () => ({ url: `http://127.0.0.1:9/${NUL_TEXT}` }),
      field: 'url',
    },
    {
      what: 'an unpaired surrogate in an endpoint URL',
      method: 'POST',
      path: () => '/api/v1/webhook-endpoints',
      body: () => ({ url: `http://127.0.0.1:9/${LONE_SURROGATE_TEXT}` }),
      field: 'url',
    },
    {
      what: 'a replay since year 0000',
      method: 'POST',
      path: () => `/api/v1/webhook-endpoints/${endpointId}/replay`,
      body: () => ({ since: '0000-01-01T00:00:00Z' }),
      field: 'since',
    },
    {
      what: 'deliveries since year 0000',
      method: 'GET',
      path: deliveries('since=0000-01-01T00:00:00Z'),
      field: 'since',
    },
    { what: 'a page size of 2^31', method: 'GET', path: deliveries(`limit=${2 ** 31}`), field: 'limit' },
    {
      what: 'a cursor that is no base64url',
      method: 'GET',
      path: deliveries('cursor=%00%FF'),
      code: 'invalid_cursor',
      field: 'cursor',
    },
    {
      what: 'a cursor of garbage',
      method: 'GET',
      path: deliveries('cursor=garbage'),
      code: 'invalid_cursor',
      field: 'cursor',
    },
    {
      what: 'a cursor beyond the years PostgreSQL holds',
      method: 'GET',
      path: deliveries(`cursor=${forgedCursor(`+275760-09-13T00:00:00.000Z|${A_UUID}`)}`),
      code: 'invalid_cursor',
      field: 'cursor',
    },
    {
      what: 'a cursor with a date the calendar lacks',
      method: 'GET',
      path: deliveries(`cursor=${forgedCursor(`2026-02-30T00:00:00.000Z|${A_UUID}`)}`),
      code: 'invalid_cursor',
      field: 'cursor',
    },
  ]);

  it('takes a multi-line description, and a cursor of the shape it makes', async () => {
    const { sut, token } = world;
    const created = await createWebhookEndpoint(sut.api, token, {
      url: 'http://127.0.0.1:9/c',
      description: 'line 1\n\tline 2',
    });
    expect(created.description).toBe('line 1\n\tline 2');
    const cursor = forgedCursor(`2026-01-10T12:00:00.000Z|${A_UUID}`);
    const page = await sut.api.get(`/api/v1/webhook-deliveries?cursor=${cursor}`, { token });
    expect(page.status).toBe(200);
  });
});
