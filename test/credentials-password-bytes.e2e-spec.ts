import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { AppWorld, startAppWorld } from './support/app-world';
import { authenticatePerson, createPerson, personInput } from './support/builders/persons';
import { DatabaseFingerprint } from './support/db-fingerprint';
import { expectStatus } from './support/http';
import { expectRawProblem } from './support/problems';
import { jsonWithRawString, RawResponse, sendRaw } from './support/raw-http';

// A password is compared as the bytes the caller sent. Decoded with replacement characters, the
// Latin-1 bytes E4 F6 FC ("äöü") and the bytes FF FF FF would both become U+FFFD U+FFFD U+FFFD:
// one password would open the other's account. Bytes that are no UTF-8 are refused instead.

const LATIN1_UMLAUTS = Buffer.from([0xe4, 0xf6, 0xfc]);
const NEVER_UTF8 = Buffer.from([0xff, 0xff, 0xff]);
const passphrase = (tail: Buffer) => Buffer.concat([Buffer.from('a long passphrase '), tail]);

describe('credentials-api: passwords are the bytes the caller sent', () => {
  let world: AppWorld;
  let fingerprint: DatabaseFingerprint;
  beforeAll(async () => {
    world = await startAppWorld(CredentialsApiApp);
    fingerprint = new DatabaseFingerprint(world.db);
  });
  afterAll(() => world?.stack.close());

  const send = (method: string, target: string, body: Buffer): Promise<RawResponse> =>
    sendRaw(world.sut.url, {
      method,
      target,
      headers: [
        ['x-auth-token', world.token],
        ['content-type', 'application/json'],
      ],
      body,
    });

  /** Runs `refused`, expects 400 invalid_encoding naming the password, and that nothing stored changed. */
  async function expectRefusedUnchanged(refused: () => Promise<RawResponse>): Promise<void> {
    const before = await fingerprint.take();
    const answer = await refused();
    expectRawProblem(answer, 400, 'invalid_encoding');
    expect((answer.json as { errors: unknown[] }).errors).toEqual([
      { field: 'password', message: 'must be valid UTF-8' },
    ]);
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  }

  it('refuses a new person whose password holds the bytes E4 F6 FC, storing nothing', async () => {
    const person = personInput();
    await expectRefusedUnchanged(() =>
      send('POST', '/api/v1/persons', jsonWithRawString(person, 'password', passphrase(LATIN1_UMLAUTS))),
    );
    expect(
      (await world.sut.api.get(`/api/v1/persons/${person.personId}`, { token: world.token })).status,
    ).toBe(404);
  });

  it('refuses such bytes as new credentials, which stay invalidated', async () => {
    const person = await createPerson(world.sut.api, world.token);
    expectStatus(
      await world.sut.api.post('/api/v1/credentials/invalidate', person, { token: world.token }),
      200,
      'invalidate',
    );
    await expectRefusedUnchanged(() =>
      send(
        'PUT',
        `/api/v1/persons/${person.personId}/credentials`,
        jsonWithRawString({ username: person.username }, 'password', passphrase(LATIN1_UMLAUTS)),
      ),
    );
  });

  it('lets neither E4 F6 FC nor FF FF FF log in as the password of three replacement characters', async () => {
    // what both byte strings used to be decoded to, sent as valid UTF-8 (EF BF BD three times)
    const person = await createPerson(world.sut.api, world.token, {
      password: 'a long passphrase \uFFFD\uFFFD\uFFFD',
    });
    const login = (password: Buffer) =>
      send(
        'POST',
        '/api/v1/credentials/authenticate',
        jsonWithRawString({ username: person.username }, 'password', password),
      );
    await expectRefusedUnchanged(() => login(passphrase(NEVER_UTF8)));
    await expectRefusedUnchanged(() => login(passphrase(LATIN1_UMLAUTS)));
    expect((await authenticatePerson(world.sut.api, world.token, person)).status).toBe(200);
  });

  it('lets no escaped unpaired surrogate log in as a replacement character either', async () => {
    const person = await createPerson(world.sut.api, world.token, { password: 'a long passphrase \uFFFD' });
    const before = await fingerprint.take();
    const answer = await send(
      'POST',
      '/api/v1/credentials/authenticate',
      Buffer.from(JSON.stringify({ username: person.username, password: 'a long passphrase \ud800' })),
    );
    expectRawProblem(answer, 400, 'validation_failed');
    expect((answer.json as { errors: Array<{ field: string }> }).errors[0].field).toBe('password');
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });
});
