import { DataSource } from 'typeorm';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { startAppWorld } from './support/app-world';
import { createPerson } from './support/builders/persons';
import { RunningApp, TenantFixture, TestStack } from './support/stack';

/**
 * A profile change is worked out from the person as read, unlocked, and applies only while the
 * profile is still so; racing changes of one person must still apply one after the other.
 */
describe('persons: concurrent profile changes of one person', () => {
  let stack: TestStack, sut: RunningApp, replica: RunningApp, db: DataSource, acme: TenantFixture;
  beforeAll(async () => {
    ({ stack, sut, db, acme } = await startAppWorld(CredentialsApiApp));
    replica = await stack.startApp(CredentialsApiApp);
  });
  afterAll(() => stack.close());

  it('applies each change once, with one PERSON_UPDATED each, in the order they applied', async () => {
    const person = await createPerson(sut.api, acme.token, { firstName: 'Ada', lastName: 'Lovelace' });
    const CHANGES = 12;
    // Every other change sets the last name, the others the email: each change must keep what
    // the others set. All values are distinct, so every change is effective in whatever order.
    const patches = Array.from({ length: CHANGES }, (_, i) =>
      i % 2 ? { email: `ada${i}@example.com` } : { lastName: `King ${i}` },
    );
    const answers = await Promise.all(
      patches.map((body, i) =>
        (i % 4 < 2 ? sut : replica).api.patch(`/api/v1/persons/${person.personId}`, body, {
          token: acme.token,
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(CHANGES).fill(200));

    const events: Array<{ changedFields: string[]; person: Record<string, unknown> }> = await db.query(
      `SELECT data -> 'changedFields' AS "changedFields", data -> 'person' AS person FROM events.outbox
        WHERE type = 'PERSON_UPDATED' AND subject_id = $1 ORDER BY position`,
      [person.personId],
    );
    expect(events).toHaveLength(CHANGES);
    // Each event tells the profile after its change, from the one before it: a chain, no gap.
    let previous: Record<string, unknown> = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: null,
      phone: null,
    };
    for (const { changedFields, person: after } of events) {
      const changed = ['firstName', 'lastName', 'email', 'phone'].filter((f) => after[f] !== previous[f]);
      expect(changedFields).toEqual(changed);
      previous = after;
    }
    const stored = (await sut.api.get(`/api/v1/persons/${person.personId}`, { token: acme.token })).body;
    expect(stored).toMatchObject({ lastName: previous.lastName, email: previous.email });
    // Each answer shows its own change applied.
    answers.forEach((r, i) => expect(r.body).toMatchObject(patches[i]));
  });
});
