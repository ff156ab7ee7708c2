import { gzipSync } from 'node:zlib';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { AppWorld, startAppWorld } from './support/app-world';
import { createPerson } from './support/builders/persons';
import { createUsageGroup } from './support/builders/usage-groups';
import { createWebhookEndpoint } from './support/builders/webhooks';
import { DatabaseFingerprint } from './support/db-fingerprint';
import { jsonWithRawString, RawResponse, sendRaw } from './support/raw-http';
import { expectRawProblem } from './support/problems';
import { RunningApp } from './support/stack';

// A body is applied as its bytes say or refused: never decoded with replacement characters, in a
// charset it was not written in, or with its content coding ignored. Sent over a raw socket, as
// fetch would re-encode what these tests send.

/** One free-text field of each API, written through an operation that changes what is stored. */
interface Probe {
  api: string;
  app: () => RunningApp;
  method: string;
  path: () => string;
  field: string;
  /** The rest of a valid body, the field's value left out. */
  rest: () => Record<string, unknown>;
  /** The status of the valid request. */
  ok: number;
}

let world: AppWorld;
let card: RunningApp;
let notification: RunningApp;
let personId: string;
let groupCode: string;
let fingerprint: DatabaseFingerprint;

beforeAll(async () => {
  world = await startAppWorld(CredentialsApiApp);
  card = await world.stack.startApp(CardApiApp);
  notification = await world.stack.startApp(NotificationApiApp);
  personId = (await createPerson(world.sut.api, world.token)).personId;
  groupCode = (await createUsageGroup(card.api, world.token)).code;
  fingerprint = new DatabaseFingerprint(world.db);
});
afterAll(() => world?.stack.close());

const probes: Probe[] = [
  {
    api: 'credentials-api',
    app: () => world.sut,
    method: 'PATCH',
    path: () => `/api/v1/persons/${personId}`,
    field: 'lastName',
    rest: () => ({}),
    ok: 200,
  },
  {
    api: 'card-api',
    app: () => card,
    method: 'PUT',
    path: () => `/api/v1/usage-groups/${groupCode}`,
    field: 'name',
    rest: () => ({ allowedServiceCodes: ['00'] }),
    ok: 200,
  },
  {
    api: 'notification-api',
    app: () => notification,
    method: 'POST',
    path: () => '/api/v1/webhook-endpoints',
    field: 'description',
    rest: () => ({ url: 'http://127.0.0.1:9/probe' }),
    ok: 201,
  },
];

/** The probe's JSON body with `value` (bytes as they go on the wire) as the field's string. */
const bodyWith = (probe: Probe, value: Buffer) => jsonWithRawString(probe.rest(), probe.field, value);

function send(probe: Probe, body: Buffer, headers: Array<[string, string]>): Promise<RawResponse> {
  return sendRaw(probe.app().url, {
    method: probe.method,
    target: probe.path(),
    headers: [['x-auth-token', world.token], ...headers],
    body,
  });
}

const JSON_TYPE: [string, string] = ['content-type', 'application/json'];
const MUELLER_UTF8 = Buffer.from('Müller', 'utf8');
const MUELLER_LATIN1 = Buffer.from('Müller', 'latin1');

describe.each(probes.map((p) => [p.api, p] as const))('%s: request bytes are never rewritten', (_, probe) => {
  const refusals: Array<[string, () => Promise<RawResponse>, number, string]> = [
    [
      'Latin-1 bytes in a JSON body',
      () => send(probe, bodyWith(probe, MUELLER_LATIN1), [JSON_TYPE]),
      400,
      'invalid_encoding',
    ],
    [
      'a body declared charset=iso-8859-1',
      () =>
        send(probe, bodyWith(probe, MUELLER_LATIN1), [
          ['content-type', 'application/json; charset=iso-8859-1'],
        ]),
      415,
      'unsupported_charset',
    ],
    [
      'a gzip body',
      () => send(probe, gzipSync(bodyWith(probe, MUELLER_UTF8)), [JSON_TYPE, ['content-encoding', 'gzip']]),
      415,
      'unsupported_content_encoding',
    ],
    [
      'a plain body declared Content-Encoding: br',
      () => send(probe, bodyWith(probe, MUELLER_UTF8), [JSON_TYPE, ['content-encoding', 'br']]),
      415,
      'unsupported_content_encoding',
    ],
    [
      'a form-encoded body (curl -d)',
      () =>
        send(probe, bodyWith(probe, MUELLER_UTF8), [['content-type', 'application/x-www-form-urlencoded']]),
      415,
      'unsupported_media_type',
    ],
  ];

  it.each(refusals)('refuses %s, changing nothing stored', async (_what, request, status, code) => {
    const before = await fingerprint.take();
    const answer = await request();
    expectRawProblem(answer, status, code);
    // Only bytes that are not UTF-8 name a field; only a refused content coding says which it accepts.
    expect({
      errors: (answer.json as { errors?: unknown[] }).errors,
      acceptEncoding: answer.headers['accept-encoding'],
    }).toEqual({
      errors:
        code === 'invalid_encoding' ? [{ field: probe.field, message: 'must be valid UTF-8' }] : undefined,
      acceptEncoding: code === 'unsupported_content_encoding' ? 'identity' : undefined,
    });
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });

  it('stores UTF-8 sent with charset=utf-8 as sent', async () => {
    const answer = await send(probe, bodyWith(probe, MUELLER_UTF8), [
      ['content-type', 'application/json; charset=UTF-8'],
    ]);
    expect(answer.status).toBe(probe.ok);
    expect((answer.json as Record<string, unknown>)[probe.field]).toBe('Müller');
  });
});

describe('an empty body with a JSON content type is no body', () => {
  const empty = (app: () => RunningApp, method: string, path: () => string) => () =>
    sendRaw(app().url, {
      method,
      target: path(),
      headers: [['x-auth-token', world.token], JSON_TYPE],
      body: Buffer.alloc(0),
    });

  it('takes it on an operation without a body: a DELETE and a POST', async () => {
    const { id } = await createWebhookEndpoint(notification.api, world.token, {
      url: 'http://127.0.0.1:9/f',
    });
    const disabled = await empty(
      () => notification,
      'POST',
      () => `/api/v1/webhook-endpoints/${id}/disable`,
    )();
    expect(disabled.status).toBe(200);
    expect(disabled.json).toMatchObject({ id, status: 'DISABLED' });
    expect(
      (
        await empty(
          () => notification,
          'DELETE',
          () => `/api/v1/webhook-endpoints/${id}`,
        )()
      ).status,
    ).toBe(204);
    expect(
      (await notification.api.get(`/api/v1/webhook-endpoints/${id}`, { token: world.token })).status,
    ).toBe(404);
  });

  it('answers an operation that needs a body 400 validation_failed, not malformed_json', async () => {
    const before = await fingerprint.take();
    expectRawProblem(
      await empty(
        () => world.sut,
        'POST',
        () => '/api/v1/credentials/authenticate',
      )(),
      400,
      'validation_failed',
    );
    expectRawProblem(
      await empty(
        () => notification,
        'POST',
        () => '/api/v1/webhook-endpoints',
      )(),
      400,
      'validation_failed',
    );
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });
});
