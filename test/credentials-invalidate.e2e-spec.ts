import { DataSource } from 'typeorm';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { createPerson, expectPersonUpdatedEvents, storedCredentials } from './support/builders/persons';
import { stableProblem } from './support/problems';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

const INVALIDATE = '/api/v1/credentials/invalidate';
const AUTHENTICATE = '/api/v1/credentials/authenticate';

describe('credentials: POST /api/v1/credentials/invalidate', () => {
  let stack: TestStack, sut: RunningApp, db: DataSource, acme: TenantFixture, other: TenantFixture;
  beforeAll(async () => ({ stack, sut, db, acme, other } = await startAppWorld(CredentialsApiApp)));
  afterAll(() => stack.close());

  const create = (fixture: TenantFixture) => createPerson(sut.api, fixture.token);
  const stored = (fixture: TenantFixture, personId: string) =>
    storedCredentials(db, fixture.tenant.id, personId);
  const invalidate = (body: unknown, fixture = acme, headers: Record<string, string> = {}) =>
    sut.api.post(INVALIDATE, body, { token: fixture.token, headers });
  const authenticate = (body: unknown, fixture = acme) =>
    sut.api.post(AUTHENTICATE, body, { token: fixture.token });

  it('invalidates the credentials, records PERSON_UPDATED in the same transaction, and authentication fails from then on', async () => {
    const person = await create(acme);
    expect((await authenticate({ username: person.username, password: person.password })).status).toBe(200);

    const r = await invalidate(person);

    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      personId: person.personId,
      status: 'INVALIDATED',
      invalidatedAt: expect.any(String),
    });
    expect(r.text).not.toContain(person.password);
    const credentials = await stored(acme, person.personId);
    expect(credentials.status).toBe('INVALIDATED');
    expect(credentials.invalidatedAt!.toISOString()).toBe(r.body.invalidatedAt);
    await expectPersonUpdatedEvents(db, acme, person.personId, [
      {
        tenantCode: acme.tenant.code,
        data: {
          personId: person.personId,
          changedFields: ['credentials.status', 'credentials.invalidatedAt'],
          person: { personId: person.personId, firstName: null, lastName: null, email: null, phone: null },
          credentials: { status: 'INVALIDATED', invalidatedAt: r.body.invalidatedAt },
        },
      },
    ]);
    const read = await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token });
    expect(read.body.credentials).toMatchObject({
      status: 'INVALIDATED',
      invalidatedAt: r.body.invalidatedAt,
    });

    const afterwards = await authenticate({ username: person.username, password: person.password });
    const wrong = await authenticate({ username: person.username, password: 'not the password at all' });
    expect(afterwards.status).toBe(401);
    expect(stableProblem(afterwards.body)).toEqual(stableProblem(wrong.body));
    expect(afterwards.body.code).toBe('invalid_credentials');
  });

  it('is safe to repeat: the same answer and no second event', async () => {
    const person = await create(acme);
    const first = await invalidate(person);
    const second = await invalidate(person);
    const third = await invalidate({ ...person, username: person.username.toUpperCase() });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(third.body).toEqual(first.body);
    await expectPersonUpdatedEvents(db, acme, person.personId, 1);
  });

  it('produces exactly one event for concurrent invalidations', async () => {
    const person = await create(acme);
    // As many as the lockout lets check one username at once (AUTH_MAX_FAILURES, 5 by default).
    const answers = await Promise.all(Array.from({ length: 5 }, () => invalidate(person)));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(200));
    expect(new Set(answers.map((a) => a.body.invalidatedAt)).size).toBe(1);
    await expectPersonUpdatedEvents(db, acme, person.personId, 1);
  });

  it('gives one uniform answer for unknown person, wrong password, another person’s username, and another tenant’s person; nothing changes', async () => {
    const person = await create(acme);
    const neighbour = await create(acme);
    const foreigner = await create(other);
    const before = await stored(acme, person.personId);

    const answers = [
      await invalidate({ ...person, personId: 'no-such-person' }),
      await invalidate({ ...person, password: 'wrong password entirely' }),
      await invalidate({ ...person, username: neighbour.username }),
      await invalidate({ ...person, username: neighbour.username, password: neighbour.password }),
      await invalidate({
        personId: person.personId,
        username: neighbour.username,
        password: person.password,
      }),
      await invalidate(foreigner),
    ];

    for (const answer of answers) {
      expect(answer.status).toBe(422);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(stableProblem(answer.body)).toEqual(stableProblem(answers[0].body));
    }
    expect(answers[0].body).toMatchObject({
      code: 'invalid_credentials',
      type: 'urn:fincore:problem:invalid_credentials',
    });
    expect(await stored(acme, person.personId)).toEqual(before);
    expect((await stored(acme, neighbour.personId)).status).toBe('ACTIVE');
    expect((await stored(other, foreigner.personId)).status).toBe('ACTIVE');
    for (const p of [person, neighbour]) await expectPersonUpdatedEvents(db, acme, p.personId, 0);
    await expectPersonUpdatedEvents(db, other, foreigner.personId, 0);
    // The foreign person is still usable in its own tenant.
    expect(
      (await authenticate({ username: foreigner.username, password: foreigner.password }, other)).status,
    ).toBe(200);
  });

  it('answers in German on request', async () => {
    const r = await invalidate({ personId: 'nobody', username: 'nobody', password: 'nothing at all' }, acme, {
      'accept-language': 'de',
    });
    expect(r.status).toBe(422);
    expect(r.body.title).toBe('Ungültige Zugangsdaten');
  });

  it.each([
    ['personId missing', { username: 'u', password: 'p' }, ['personId']],
    ['username missing', { personId: 'x', password: 'p' }, ['username']],
    ['password missing', { personId: 'x', username: 'u' }, ['password']],
    ['everything missing', {}, ['personId', 'username', 'password']],
    ['personId a number', { personId: 42, username: 'u', password: 'p' }, ['personId']],
    ['username null', { personId: 'x', username: null, password: 'p' }, ['username']],
    ['password an array', { personId: 'x', username: 'u', password: ['p'] }, ['password']],
    ['empty strings', { personId: '', username: '', password: '' }, ['personId', 'username', 'password']],
    ['username too long', { personId: 'x', username: 'u'.repeat(257), password: 'p' }, ['username']],
    ['password too long', { personId: 'x', username: 'u', password: 'p'.repeat(1025) }, ['password']],
    ['personId too long', { personId: 'x'.repeat(65), username: 'u', password: 'p' }, ['personId']],
    ['an unknown field', { personId: 'x', username: 'u', password: 'p', pasword: 'typo' }, ['']],
    ['personId with a NUL character', { personId: 'x\u0000', username: 'u', password: 'p' }, ['personId']],
    ['username with a NUL character', { personId: 'x', username: 'u\u0000', password: 'p' }, ['username']],
  ])('answers 400 with errors[] when %s, and changes nothing', async (_case, body, fields) => {
    const person = await create(acme);
    const withRealPerson = Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, k === 'personId' && v === 'x' ? person.personId : v]),
    );
    const r = await invalidate(withRealPerson);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
    expect((await stored(acme, person.personId)).status).toBe('ACTIVE');
    await expectPersonUpdatedEvents(db, acme, person.personId, 0);
  });

  it('accepts the longest allowed username and password (256 and 1,024 characters): set, proven and invalidated', async () => {
    const longest = (seed: string, length: number) =>
      seed.repeat(Math.ceil(length / seed.length)).slice(0, length);
    const person = await createPerson(sut.api, acme.token, {
      username: `${Date.now()}.${longest('long.username', 256)}`.slice(0, 256),
      password: longest('correct horse battery staple ', 1024),
    });
    expect([person.username.length, person.password.length]).toEqual([256, 1024]);
    expect((await authenticate({ username: person.username, password: person.password })).status).toBe(200);
    expect((await invalidate(person)).status).toBe(200);
    expect((await stored(acme, person.personId)).status).toBe('INVALIDATED');
    // And as new credentials after the invalidation.
    const fresh = { username: person.username, password: longest('a different passphrase 42 ', 1024) };
    const set = await sut.api.put(`/api/v1/persons/${person.personId}/credentials`, fresh, {
      token: acme.token,
    });
    expect(set.status).toBe(200);
    expect((await authenticate(fresh)).status).toBe(200);
  });

  it('refuses a wrong password once the credentials are invalidated: the uniform 422, nothing changes', async () => {
    const person = await create(acme);
    const first = await invalidate(person);
    expect(first.status).toBe(200);
    const before = await stored(acme, person.personId);

    const wrong = await invalidate({ ...person, password: 'not the invalidated one' });
    const unknown = await invalidate({ ...person, personId: 'no-such-person' });

    expect(wrong.status).toBe(422);
    expect(stableProblem(wrong.body)).toEqual(stableProblem(unknown.body));
    expect(wrong.body.code).toBe('invalid_credentials');
    expect(await stored(acme, person.personId)).toEqual(before);
    await expectPersonUpdatedEvents(db, acme, person.personId, 1);
    // The right one still gets the first answer.
    expect((await invalidate(person)).body).toEqual(first.body);
  });

  it('needs the credentials:write scope', async () => {
    const person = await create(acme);
    const reader = await acme.tokenWith(['persons:read', 'credentials:authenticate']);
    const r = await sut.api.post(INVALIDATE, person, { token: reader });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('insufficient_scope');
    expect((await stored(acme, person.personId)).status).toBe('ACTIVE');
    const writer = await acme.tokenWith(['credentials:write']);
    expect((await sut.api.post(INVALIDATE, person, { token: writer })).status).toBe(200);
  });

  it('refuses the old credentials once new ones are set', async () => {
    const person = await create(acme);
    expect((await invalidate(person)).status).toBe(200);
    const fresh = { username: person.username, password: 'a completely new passphrase' };
    expect(
      (await sut.api.put(`/api/v1/persons/${person.personId}/credentials`, fresh, { token: acme.token }))
        .status,
    ).toBe(200);
    expect((await invalidate(person)).status).toBe(422);
    expect((await stored(acme, person.personId)).status).toBe('ACTIVE');
    expect((await authenticate(fresh)).status).toBe(200);
  });

  it('describes every operation with schemas and examples in the OpenAPI document', async () => {
    const doc = (await sut.api.get('/docs-json')).body;
    const invalidate = doc.paths['/api/v1/credentials/invalidate'].post;
    expect(invalidate.tags).toEqual(['credentials']);
    expect(invalidate.security).toEqual([{ 'x-auth-token': [] }]);
    expect(Object.keys(invalidate.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '422', '429']),
    );
    expect(invalidate.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/InvalidateCredentialsRequest',
    });
    const request = doc.components.schemas.InvalidateCredentialsRequest;
    expect(request.required).toEqual(['personId', 'username', 'password']);
    expect(request.properties.username).toMatchObject({
      type: 'string',
      maxLength: 256,
      description: expect.any(String),
    });
    expect(request.properties.password).toMatchObject({ type: 'string', maxLength: 1024 });
    expect(JSON.stringify(request)).toContain('demo-person-1');
    expect(JSON.stringify(invalidate.responses['200'])).toContain('INVALIDATED');
    expect(JSON.stringify(invalidate.responses['422'])).toContain('invalid_credentials');
    expect(JSON.stringify(doc.paths['/api/v1/credentials/authenticate'].post.responses['401'])).toContain(
      'invalid_credentials',
    );
    for (const [path, method] of [
      ['/api/v1/credentials/authenticate', 'post'],
      ['/api/v1/persons', 'post'],
      ['/api/v1/persons/{personId}', 'get'],
      ['/api/v1/persons/{personId}', 'patch'],
      ['/api/v1/persons/{personId}/credentials', 'put'],
    ]) {
      const operation = doc.paths[path][method];
      expect(operation.summary).toEqual(expect.any(String));
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '401', '403']));
      const success = operation.responses['200'] ?? operation.responses['201'];
      expect(JSON.stringify(success)).toContain('example');
    }
    expect(JSON.stringify(doc)).not.toContain('passwordHash');
  });
});
