import type { DataSource } from 'typeorm';
import { ApiClient, ApiResponse, eventually, expectStatus } from '../http';
import { ExpectedOutboxEvents, expectOutboxEvents, OutboxRow } from '../outbox';
import type { TenantFixture } from '../stack';

export interface PersonInput {
  personId: string;
  username: string;
  password: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
}

let seq = 0;

/** A new person's POST body: unique id and username, a password the policy accepts. */
export function personInput(overrides: Partial<PersonInput> = {}, prefix = 'person'): PersonInput {
  seq += 1;
  return {
    personId: `${prefix}-${seq}-${Date.now()}`,
    username: `${prefix}.user${seq}.${Date.now()}`,
    password: `a long passphrase ${seq}!`,
    ...overrides,
  };
}

/** Creates a person through the API (201 or the test fails) and returns what was sent. */
export async function createPerson(
  api: ApiClient,
  token: string,
  overrides: Partial<PersonInput> = {},
  prefix?: string,
): Promise<PersonInput> {
  const person = personInput(overrides, prefix);
  expectStatus(await api.post('/api/v1/persons', person, { token }), 201, `create person ${person.personId}`);
  return person;
}

/** POST /api/v1/credentials/authenticate with just the username and password. */
export function authenticatePerson(
  api: ApiClient,
  token: string,
  { username, password }: Pick<PersonInput, 'username' | 'password'>,
): Promise<ApiResponse> {
  return api.post('/api/v1/credentials/authenticate', { username, password }, { token });
}

export interface StoredCredentials {
  status: string;
  invalidatedAt: Date | null;
  passwordHash: string;
}

/** The person's credentials as stored, to prove what a request changed or left alone. */
export async function storedCredentials(
  db: DataSource,
  tenantId: string,
  personId: string,
): Promise<StoredCredentials> {
  const [row] = await db.query(
    `SELECT credentials_status AS status, credentials_invalidated_at AS "invalidatedAt", password_hash AS "passwordHash"
       FROM credentials.persons WHERE tenant_id = $1 AND person_id = $2`,
    [tenantId, personId],
  );
  if (!row) throw new Error(`no person ${personId} in tenant ${tenantId}`);
  return row;
}

/** Asserts the PERSON_UPDATED events of one person of the tenant, as `expectOutboxEvents` does. */
export function expectPersonUpdatedEvents(
  db: DataSource,
  fixture: TenantFixture,
  personId: string,
  expected: ExpectedOutboxEvents,
): Promise<OutboxRow[]> {
  const filter = { type: 'PERSON_UPDATED', tenantCode: fixture.tenant.code, data: { personId } };
  return expectOutboxEvents(db, filter, expected);
}

export interface HeldPersonRow {
  /** Resolves once `count` requests wait for the row (or any other lock of this database). */
  waiters(count: number): Promise<void>;
  /** Ends the test's transaction: the waiting requests get the row in the order they queued. */
  release(): Promise<void>;
}

/**
 * Locks the person's row (FOR UPDATE) in a transaction of the test, so that requests needing it
 * queue behind it: races between requests then play out in an order the test chooses.
 */
export async function holdPersonRow(
  db: DataSource,
  tenantId: string,
  personId: string,
): Promise<HeldPersonRow> {
  const runner = db.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query(`SELECT 1 FROM credentials.persons WHERE tenant_id = $1 AND person_id = $2 FOR UPDATE`, [
    tenantId,
    personId,
  ]);
  return {
    waiters: async (count) => {
      await eventually(
        async () => {
          const [{ n }] = await db.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          return n >= count;
        },
        { timeoutMs: 10_000, intervalMs: 20, what: `${count} requests to wait for person ${personId}` },
      );
    },
    release: async () => {
      try {
        if (runner.isTransactionActive) await runner.commitTransaction();
      } finally {
        await runner.release();
      }
    },
  };
}
