import { DataSource } from 'typeorm';
import { createDataSource } from '@fincore/database';
import { ApiTokenEntity, DEMO_TENANT_CODE, TenantEntity, TokenAdmin } from '@fincore/platform';
import { DEMO_SEEDS } from '../apps/cli/src/demo-seeds';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { personsDemoSeed } from '../apps/credentials-api/src/persons/demo.seed';
import { PersonEntity } from '../apps/credentials-api/src/persons/entities/person.entity';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

let seq = 0;
const newPerson = (extra: Record<string, unknown> = {}) => {
  seq += 1;
  return {
    personId: `person-${seq}-${Date.now()}`,
    username: `user${seq}.${Date.now()}`,
    password: `a long passphrase ${seq}`,
    ...extra,
  };
};

describe('persons', () => {
  let stack: TestStack;
  let sut: RunningApp;
  let db: DataSource;
  let acme: TenantFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    stack = await TestStack.create();
    sut = await stack.startApp(CredentialsApiApp);
    db = await stack.db();
    acme = await stack.createTenant();
    other = await stack.createTenant();
  });
  afterAll(() => stack.close());

  const personCount = async (fixture: TenantFixture) =>
    Number(
      (
        await db.query(`SELECT count(*) AS n FROM credentials.persons WHERE tenant_id = $1`, [
          fixture.tenant.id,
        ])
      )[0].n,
    );
  const events = async (fixture: TenantFixture, personId: string) =>
    db.query(
      `SELECT tenant_code, data FROM events.outbox WHERE type = 'PERSON_UPDATED' AND tenant_code = $1 AND data->>'personId' = $2 ORDER BY created_at`,
      [fixture.tenant.code, personId],
    );
  const post = (body: unknown, fixture = acme) =>
    sut.api.post('/api/v1/persons', body, { token: fixture.token });

  describe('POST /api/v1/persons', () => {
    it('creates a person with active credentials and a hashed password, and never shows the hash', async () => {
      const person = newPerson({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '+4930123456',
      });
      const r = await post(person);
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        personId: person.personId,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '+4930123456',
        credentials: {
          username: person.username,
          status: 'ACTIVE',
          invalidatedAt: null,
          updatedAt: expect.any(String),
        },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const [stored] = await db.query(`SELECT password_hash FROM credentials.persons WHERE person_id = $1`, [
        person.personId,
      ]);
      expect(stored.password_hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
      const read = await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token });
      expect(read.status).toBe(200);
      expect(read.body).toEqual(r.body);
      for (const text of [r.text, read.text]) {
        expect(text).not.toContain('argon2');
        expect(text).not.toContain(person.password);
      }
      expect(await events(acme, person.personId)).toHaveLength(0);
    });

    it('generates a person id when none is given', async () => {
      const { personId: _omitted, ...person } = newPerson();
      const r = await post(person);
      expect(r.status).toBe(201);
      expect(r.body.personId).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers 409 for an existing person id or a username taken in any case, and creates nothing', async () => {
      const person = newPerson();
      expect((await post(person)).status).toBe(201);
      const before = await personCount(acme);
      const samePersonId = await post({ ...newPerson(), personId: person.personId });
      expect(samePersonId.status).toBe(409);
      expect(samePersonId.body.code).toBe('person_exists');
      const sameUsername = await post({ ...newPerson(), username: person.username.toUpperCase() });
      expect(sameUsername.status).toBe(409);
      expect(sameUsername.body.code).toBe('username_taken');
      expect(await personCount(acme)).toBe(before);
      // Both are per tenant: another tenant may use them.
      expect((await post(person, other)).status).toBe(201);
    });

    it('creates one of two concurrent requests for the same username and answers 409 to the other', async () => {
      const username = `race.${Date.now()}`;
      const answers = await Promise.all([post(newPerson({ username })), post(newPerson({ username }))]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    });

    it('answers 422 with every password policy violation, and creates nothing', async () => {
      const before = await personCount(acme);
      const short = await post(newPerson({ password: 'short' }));
      expect(short.status).toBe(422);
      expect(short.body.code).toBe('password_policy_violated');
      expect(short.body.errors).toEqual([expect.objectContaining({ field: 'password', code: 'too_short' })]);
      const person = newPerson();
      const withUsername = await post({ ...person, password: `${person.username}-and-more` });
      expect(withUsername.status).toBe(422);
      expect(withUsername.body.errors.map((e: { code: string }) => e.code)).toEqual(['contains_username']);
      expect((await post(newPerson({ password: 'aaaaaaaaaaaaaaaa' }))).body.errors[0].code).toBe(
        'too_repetitive',
      );
      expect(await personCount(acme)).toBe(before);
    });

    it.each([
      ['username missing', { personId: 'x1', password: 'a long passphrase' }, ['username']],
      ['password missing', { personId: 'x2', username: 'someone' }, ['password']],
      [
        'a malformed person id',
        { personId: 'has space', username: 'someone', password: 'a long passphrase' },
        ['personId'],
      ],
      ['a username with spaces', { username: 'some one', password: 'a long passphrase' }, ['username']],
      [
        'an invalid e-mail and phone',
        { username: 'someone', password: 'a long passphrase', email: 'nope', phone: '0301234' },
        ['email', 'phone'],
      ],
      ['a password over 1,024 characters', { username: 'someone', password: 'x'.repeat(1025) }, ['password']],
      ['an unknown field', { username: 'someone', password: 'a long passphrase', role: 'admin' }, ['']],
      [
        'NUL characters in names and e-mail',
        {
          username: 'someone',
          password: 'a long passphrase',
          firstName: 'A\u0000',
          lastName: '\u0000B',
          email: 'a\u0000@example.com',
        },
        ['firstName', 'lastName', 'email'],
      ],
    ])('answers 400 for %s, and creates nothing', async (_case, body, fields) => {
      const before = await personCount(acme);
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
      expect(await personCount(acme)).toBe(before);
    });

    it('needs the persons:write scope', async () => {
      const token = await acme.tokenWith(['persons:read']);
      const r = await sut.api.post('/api/v1/persons', newPerson(), { token });
      expect(r.status).toBe(403);
    });
  });

  describe('GET /api/v1/persons/{personId}', () => {
    it('answers 404 for an unknown person and for another tenant’s person alike', async () => {
      const foreign = newPerson();
      expect((await post(foreign, other)).status).toBe(201);
      const unknown = await sut.api.get('/api/v1/persons/no-such-person', { token: acme.token });
      const foreignRead = await sut.api.get(`/api/v1/persons/${foreign.personId}`, { token: acme.token });
      expect(unknown.status).toBe(404);
      expect(foreignRead.status).toBe(404);
      expect(foreignRead.body.code).toBe('person_not_found');
      const malformed = await sut.api.get('/api/v1/persons/has%20space', { token: acme.token });
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe('validation_failed');
    });

    it('needs the persons:read scope', async () => {
      const person = newPerson();
      await post(person);
      const token = await acme.tokenWith(['persons:write']);
      expect((await sut.api.get(`/api/v1/persons/${person.personId}`, { token })).status).toBe(403);
    });
  });

  describe('PATCH /api/v1/persons/{personId}', () => {
    it('changes profile fields and emits PERSON_UPDATED naming exactly them', async () => {
      const person = newPerson({ firstName: 'Ada', lastName: 'Lovelace', phone: '+4930123456' });
      await post(person);
      const r = await sut.api.patch(
        `/api/v1/persons/${person.personId}`,
        { firstName: 'Ada', lastName: 'King', phone: null },
        { token: acme.token },
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ firstName: 'Ada', lastName: 'King', phone: null, email: null });
      const recorded = await events(acme, person.personId);
      expect(recorded).toHaveLength(1);
      expect(recorded[0].data).toEqual({
        personId: person.personId,
        changedFields: ['lastName', 'phone'],
        person: { personId: person.personId, firstName: 'Ada', lastName: 'King', email: null, phone: null },
      });
      expect(
        (await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token })).body.lastName,
      ).toBe('King');
    });

    it('emits nothing when nothing changes', async () => {
      const person = newPerson({ firstName: 'Grace' });
      await post(person);
      expect(
        (
          await sut.api.patch(
            `/api/v1/persons/${person.personId}`,
            { firstName: 'Grace' },
            { token: acme.token },
          )
        ).status,
      ).toBe(200);
      expect(
        (await sut.api.patch(`/api/v1/persons/${person.personId}`, {}, { token: acme.token })).status,
      ).toBe(200);
      expect(await events(acme, person.personId)).toHaveLength(0);
    });

    it('refuses invalid fields, credential fields and other tenants’ persons, changing nothing', async () => {
      const person = newPerson({ firstName: 'Grace' });
      await post(person);
      const invalid = await sut.api.patch(
        `/api/v1/persons/${person.personId}`,
        { firstName: 'Gracie', email: 'not-an-email' },
        { token: acme.token },
      );
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors.map((e: { field: string }) => e.field)).toEqual(['email']);
      const nul = await sut.api.patch(
        `/api/v1/persons/${person.personId}`,
        { firstName: 'Gr\u0000ce' },
        { token: acme.token },
      );
      expect(nul.status).toBe(400);
      expect(nul.body.errors.map((e: { field: string }) => e.field)).toEqual(['firstName']);
      const credentialField = await sut.api.patch(
        `/api/v1/persons/${person.personId}`,
        { username: 'new.name' },
        { token: acme.token },
      );
      expect(credentialField.status).toBe(400);
      const foreign = await sut.api.patch(
        `/api/v1/persons/${person.personId}`,
        { firstName: 'Mallory' },
        { token: other.token },
      );
      expect(foreign.status).toBe(404);
      const read = await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token });
      expect(read.body.firstName).toBe('Grace');
      expect(await events(acme, person.personId)).toHaveLength(0);
      expect(await events(other, person.personId)).toHaveLength(0);
    });
  });

  describe('PUT /api/v1/persons/{personId}/credentials', () => {
    const put = (personId: string, body: unknown, fixture = acme) =>
      sut.api.put(`/api/v1/persons/${personId}/credentials`, body, { token: fixture.token });

    it('needs credentials:write as well as persons:write (403 otherwise), changing nothing', async () => {
      const person = newPerson();
      await post(person);
      await sut.api.post('/api/v1/credentials/invalidate', person, { token: acme.token });
      const profileEditor = await acme.tokenWith(['persons:write', 'persons:read']);
      const r = await sut.api.put(
        `/api/v1/persons/${person.personId}/credentials`,
        { username: person.username, password: 'a brand new passphrase 42' },
        { token: profileEditor },
      );
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('insufficient_scope');
      const stored = (await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token })).body;
      expect(stored.credentials.status).toBe('INVALIDATED');
    });

    it('refuses while the credentials are active (409), changing nothing', async () => {
      const person = newPerson();
      await post(person);
      const r = await put(person.personId, {
        username: person.username,
        password: 'another long passphrase',
      });
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('credentials_active');
      const { username, password } = person;
      expect(
        (
          await sut.api.post(
            '/api/v1/credentials/authenticate',
            { username, password },
            { token: acme.token },
          )
        ).status,
      ).toBe(200);
      expect(await events(acme, person.personId)).toHaveLength(0);
    });

    it('sets new credentials after an invalidation: active at once, old ones refused, PERSON_UPDATED emitted', async () => {
      const person = newPerson();
      await post(person);
      expect(
        (await sut.api.post('/api/v1/credentials/invalidate', person, { token: acme.token })).status,
      ).toBe(200);
      const fresh = { username: `${person.username}.new`, password: 'a fresh passphrase here' };

      const r = await put(person.personId, fresh);

      expect(r.status).toBe(200);
      expect(r.body.credentials).toMatchObject({
        username: fresh.username,
        status: 'ACTIVE',
        invalidatedAt: null,
      });
      const recorded = await events(acme, person.personId);
      expect(recorded).toHaveLength(2);
      expect(recorded[1].data).toMatchObject({
        personId: person.personId,
        changedFields: [
          'credentials.status',
          'credentials.invalidatedAt',
          'credentials.username',
          'credentials.password',
        ],
        credentials: { status: 'ACTIVE', invalidatedAt: null },
      });
      expect(JSON.stringify(recorded[1].data)).not.toContain(fresh.password);
      const auth = (body: unknown) =>
        sut.api.post('/api/v1/credentials/authenticate', body, { token: acme.token });
      expect((await auth(fresh)).status).toBe(200);
      expect((await auth({ username: person.username, password: person.password })).status).toBe(401);
    });

    it('lets one of two concurrent settings win, with one event; the other gets 409 credentials_active', async () => {
      const person = newPerson();
      await post(person);
      await sut.api.post('/api/v1/credentials/invalidate', person, { token: acme.token });
      const answers = await Promise.all([
        put(person.personId, { username: person.username, password: 'first new passphrase' }),
        put(person.personId, { username: person.username, password: 'second new passphrase' }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.code).toBe('credentials_active');
      expect(await events(acme, person.personId)).toHaveLength(2); // the invalidation and one setting
    });

    it('refuses the invalidated password (422), a weak one (422), a taken username (409) and another tenant (404), changing nothing', async () => {
      const person = newPerson();
      const neighbour = newPerson();
      await post(person);
      await post(neighbour);
      await sut.api.post('/api/v1/credentials/invalidate', person, { token: acme.token });

      const reused = await put(person.personId, { username: person.username, password: person.password });
      expect(reused.status).toBe(422);
      expect(reused.body.code).toBe('password_reused');
      const weak = await put(person.personId, { username: person.username, password: 'weak' });
      expect(weak.status).toBe(422);
      expect(weak.body.code).toBe('password_policy_violated');
      const taken = await put(person.personId, {
        username: neighbour.username,
        password: 'a fresh passphrase here',
      });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('username_taken');
      const foreign = await put(
        person.personId,
        { username: person.username, password: 'a fresh passphrase here' },
        other,
      );
      expect(foreign.status).toBe(404);
      const malformed = await put(person.personId, { username: person.username });
      expect(malformed.status).toBe(400);

      const read = await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token });
      expect(read.body.credentials).toMatchObject({ username: person.username, status: 'INVALIDATED' });
      expect(await events(acme, person.personId)).toHaveLength(1);
    });
  });

  it('never logs a password hash, also when a username conflict makes a write fail', async () => {
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error'] as const).map((level) =>
      jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(' '));
      }),
    );
    try {
      const person = newPerson();
      const neighbour = newPerson();
      await post(person);
      await post(neighbour);
      await sut.api.post('/api/v1/credentials/invalidate', person, { token: acme.token });
      const taken = await sut.api.put(
        `/api/v1/persons/${person.personId}/credentials`,
        { username: neighbour.username.toUpperCase(), password: 'a fresh passphrase here' },
        { token: acme.token },
      );
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('username_taken');
      const username = `race.log.${Date.now()}`;
      const racers = await Promise.all(Array.from({ length: 4 }, () => post(newPerson({ username }))));
      expect(racers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
      expect(racers.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(
        Array(3).fill('username_taken'),
      );
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(logged.filter((line) => line.includes('$argon2'))).toEqual([]);
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

describe('demo seed', () => {
  let stack: TestStack;
  afterAll(() => stack.close());

  it('creates the demo person once, with credentials that authenticate', async () => {
    stack = await TestStack.create();
    const ds = createDataSource(stack.config, [TenantEntity, ApiTokenEntity, PersonEntity]);
    await ds.initialize();
    try {
      expect(DEMO_SEEDS).toContain(personsDemoSeed);
      // This context's seed alone (the CLI runs every context's in one transaction the same way).
      const admin = new TokenAdmin(ds);
      const tenant = await admin.createTenant(DEMO_TENANT_CODE, 'Demo Bank');
      const seed = () => ds.transaction((manager) => personsDemoSeed.seed(manager, tenant));
      const first = (await seed()) as { person: { personId: string; username: string; password: string } };
      const second = await seed();
      expect(first.person).toMatchObject({
        personId: 'demo-person-1',
        username: 'demo.user',
        credentialsStatus: 'ACTIVE',
      });
      expect(second).toEqual(first);
      expect(Number((await ds.query(`SELECT count(*) AS n FROM credentials.persons`))[0].n)).toBe(1);

      const { token } = await new TokenAdmin(ds).createToken(DEMO_TENANT_CODE, { name: 'demo-test' });
      const sut = await stack.startApp(CredentialsApiApp);
      const { username, password } = first.person;
      const r = await sut.api.post('/api/v1/credentials/authenticate', { username, password }, { token });
      expect(r.status).toBe(200);
      expect(r.body.personId).toBe('demo-person-1');
    } finally {
      await ds.destroy();
    }
  });
});
