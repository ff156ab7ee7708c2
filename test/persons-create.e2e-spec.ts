import { DataSource } from 'typeorm';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { personInput, expectPersonUpdatedEvents, storedCredentials } from './support/builders/persons';
import { countRows } from './support/db';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

describe('persons: POST /api/v1/persons', () => {
  let stack: TestStack, sut: RunningApp, db: DataSource, acme: TenantFixture, other: TenantFixture;
  beforeAll(async () => ({ stack, sut, db, acme, other } = await startAppWorld(CredentialsApiApp)));
  afterAll(() => stack.close());

  const personCount = (fixture: TenantFixture) =>
    countRows(db, 'credentials.persons', { tenant_id: fixture.tenant.id });
  const post = (body: unknown, fixture = acme) =>
    sut.api.post('/api/v1/persons', body, { token: fixture.token });

  it('creates a person with active credentials and a hashed password, and never shows the hash', async () => {
    const person = personInput({
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
    const stored = await storedCredentials(db, acme.tenant.id, person.personId);
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    const read = await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(r.body);
    for (const text of [r.text, read.text]) {
      expect(text).not.toContain('argon2');
      expect(text).not.toContain(person.password);
    }
    await expectPersonUpdatedEvents(db, acme, person.personId, 0);
  });

  it('generates a person id when none is given', async () => {
    const { personId: _omitted, ...person } = personInput();
    const r = await post(person);
    expect(r.status).toBe(201);
    expect(r.body.personId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 409 for an existing person id or a username taken in any case, and creates nothing', async () => {
    const person = personInput();
    expect((await post(person)).status).toBe(201);
    const before = await personCount(acme);
    const samePersonId = await post({ ...personInput(), personId: person.personId });
    expect(samePersonId.status).toBe(409);
    expect(samePersonId.body.code).toBe('person_exists');
    const sameUsername = await post({ ...personInput(), username: person.username.toUpperCase() });
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.body.code).toBe('username_taken');
    expect(await personCount(acme)).toBe(before);
    // Both are per tenant: another tenant may use them.
    expect((await post(person, other)).status).toBe(201);
  });

  it('creates one of two concurrent requests for the same username and answers 409 to the other', async () => {
    const username = `race.${Date.now()}`;
    const answers = await Promise.all([post(personInput({ username })), post(personInput({ username }))]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  it('answers 422 with every password policy violation, and creates nothing', async () => {
    const before = await personCount(acme);
    const short = await post(personInput({ password: 'short' }));
    expect(short.status).toBe(422);
    expect(short.body.code).toBe('password_policy_violated');
    expect(short.body.errors).toEqual([expect.objectContaining({ field: 'password', code: 'too_short' })]);
    const person = personInput();
    const withUsername = await post({ ...person, password: `${person.username}-and-more` });
    expect(withUsername.status).toBe(422);
    expect(withUsername.body.errors.map((e: { code: string }) => e.code)).toEqual(['contains_username']);
    expect((await post(personInput({ password: 'aaaaaaaaaaaaaaaa' }))).body.errors[0].code).toBe(
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
    const r = await sut.api.post('/api/v1/persons', personInput(), { token });
    expect(r.status).toBe(403);
  });
});
