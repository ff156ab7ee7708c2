import fc from 'fast-check';
import { CredentialsApiApp } from '../../apps/credentials-api/src/app.definition';
import { AppWorld, startAppWorld } from '../support/app-world';
import { expectStatus } from '../support/http';
import { createPerson, PersonInput } from '../support/builders/persons';
import { expectNoFindings, fuzz, FuzzTarget, fuzzTimeoutMs, loadDoc } from './fuzz-harness';
import { commonHints } from './hints';

/**
 * The credentials API against inputs generated from its own OpenAPI document: valid-shaped requests
 * (reaching the tenant's real persons, with their real usernames and passwords) and malformed ones.
 */
let app: AppWorld;
let target: FuzzTarget;

beforeAll(async () => {
  app = await startAppWorld(CredentialsApiApp);
  const persons: PersonInput[] = [];
  for (let i = 0; i < 5; i++) persons.push(await createPerson(app.sut.api, app.token, {}, 'fuzz'));
  // the first two only log in; the others are read, changed, invalidated, and one is invalidated already
  const [loginOnly, changed] = [persons.slice(0, 2), persons.slice(2)];
  const invalidated = changed[2];
  expectStatus(
    await app.sut.api.post('/api/v1/credentials/invalidate', invalidated, { token: app.token }),
    200,
    'invalidate',
  );
  // persons of their own for the erasure, which leaves nothing of them for the other operations
  const erasable: PersonInput[] = [];
  for (let i = 0; i < 3; i++) erasable.push(await createPerson(app.sut.api, app.token, {}, 'fuzz-erasable'));
  const person = fc.constantFrom(...changed);
  const fresh = fc.nat().map((n) => `fuzz.new.${n}`);
  target = {
    specFile: 'test/fuzz/credentials-api.e2e-spec.ts',
    baseUrl: app.sut.url,
    db: app.db,
    doc: await loadDoc(app.sut.url),
    token: app.token,
    hints: {
      ...commonHints(app.acme.tenant.code),
      // Existing persons: a made-up id only earns a 404 (the schema's values still try those). A
      // creation has whole bodies with fresh ids, an erasure a hint of its own.
      personId: person.map((p) => p.personId),
      username: fc.oneof(
        person.map((p) => p.username),
        fresh,
      ),
      password: fc.oneof(
        person.map((p) => p.password),
        fc.nat().map((n) => `another long passphrase ${n}!`),
      ),
      firstName: fc.constantFrom('Ada', 'Jürgen'),
      lastName: fc.constantFrom('Lovelace', "O'Brien"),
      email: fc.constant('ada@example.com'),
      phone: fc.constant('+4915112345678'),
    },
    // only the invalidated person can be given new credentials (once, they are active again)
    operationHints: {
      'PUT /api/v1/persons/{personId}/credentials': { personId: fc.constant(invalidated.personId) },
      'POST /api/v1/persons/{personId}/erase': {
        personId: fc.oneof(
          fc.constantFrom(...erasable).map((p) => p.personId),
          fresh,
        ),
      },
    },
    bodies: {
      // The hints above name existing persons, which a creation must not.
      'POST /api/v1/persons': fc.record(
        {
          personId: fresh,
          username: fresh,
          password: fc.nat().map((n) => `another long passphrase ${n}!`),
          firstName: fc.constantFrom('Ada', 'Jürgen'),
        },
        { requiredKeys: ['username', 'password'] },
      ),
      'POST /api/v1/credentials/authenticate': fc
        .constantFrom(...loginOnly)
        .map(({ username, password }) => ({ username, password })),
      'POST /api/v1/credentials/invalidate': person.map(({ personId, username, password }) => ({
        personId,
        username,
        password,
      })),
      'PUT /api/v1/persons/{personId}/credentials': fc.record({
        username: fc.constant(invalidated.username),
        password: fc.nat().map((n) => `a new long passphrase ${n}!`),
      }),
    },
  };
});

afterAll(() => app?.stack.close());

describe('credentials API fuzz', () => {
  it(
    'answers valid-shaped requests to every documented operation as documented',
    async () => expectNoFindings(await fuzz(target, 'valid-shaped')),
    fuzzTimeoutMs(6),
  );

  it(
    'rejects malformed requests with problem+json and a stable code, changing nothing',
    async () => expectNoFindings(await fuzz(target, 'malformed')),
    fuzzTimeoutMs(6),
  );
});
