import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Not, QueryFailedError } from 'typeorm';
import { queryPrepared } from '@fincore/database';
import { outboxInsertWhen, OutboxRows } from '@fincore/events';
import { CredentialsStatus } from './domain/credentials';
import { ErasureRecord, takenUsernameKeys } from './domain/erasure';
import type { Profile } from './domain/profile';
import { PersonEntity } from './person.entity';

/** What a new person is stored with; the credentials are active at once. */
export interface NewPerson extends Profile {
  tenantId: string;
  personId: string;
  username: string;
  usernameKey: string;
  passwordHash: string;
}

/** New credentials replacing invalidated ones. */
export interface ReplacementCredentials {
  username: string;
  usernameKey: string;
  passwordHash: string;
}

/** True when a write failed on the per-tenant username key (a race lost after the check). */
export function isUsernameConflict(error: unknown): boolean {
  const driverError = (error as QueryFailedError & { driverError?: { code?: string; constraint?: string } })
    ?.driverError;
  return (
    error instanceof QueryFailedError &&
    driverError?.code === '23505' &&
    driverError.constraint === 'persons_tenant_username'
  );
}

/** The statements on the hot paths of a profile change, their select lists being `columns`. */
function personStatements(columns: string) {
  return {
    findByPersonId: `SELECT ${columns} FROM credentials.persons WHERE tenant_id = $1 AND person_id = $2`,
    /**
     * Updates the profile only while it is still as read ($7 to $10) and the person not erased; the
     * outbox rows ($11 on) are written only when the person's row was.
     */
    updateProfileIfUnchanged: `WITH p AS (
         UPDATE credentials.persons SET first_name = $1, last_name = $2, email = $3, phone = $4, updated_at = $5
          WHERE id = $6 AND erased_at IS NULL AND first_name IS NOT DISTINCT FROM $7::varchar
            AND last_name IS NOT DISTINCT FROM $8::varchar
            AND email IS NOT DISTINCT FROM $9::varchar
            AND phone IS NOT DISTINCT FROM $10::varchar
         RETURNING ${columns}),
       o AS (${outboxInsertWhen('p', 11)})
       SELECT ${columns} FROM p`,
  };
}

/**
 * The one owner of `credentials.persons`: persons with their current credentials. Methods that
 * take an EntityManager run in the caller's transaction (the unit of work); the row lock they take
 * serialises invalidation, re-hashing and the setting of new credentials.
 */
@Injectable()
export class PersonRepository {
  private built?: ReturnType<typeof personStatements>;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private persons(manager = this.db.manager) {
    return manager.getRepository(PersonEntity);
  }

  /**
   * The person, unlocked; in the caller's transaction when given its manager. Outside one it is a
   * named prepared statement: every change of a profile starts with this read.
   */
  findByPersonId(manager: EntityManager, tenantId: string, personId: string): Promise<PersonEntity | null>;
  findByPersonId(tenantId: string, personId: string): Promise<PersonEntity | null>;
  async findByPersonId(
    ...args: [EntityManager, string, string] | [string, string]
  ): Promise<PersonEntity | null> {
    if (args.length === 3) {
      const [manager, tenantId, personId] = args;
      return this.persons(manager).findOne({ where: { tenantId, personId } });
    }
    const [tenantId, personId] = args;
    const sql = this.statements.findByPersonId;
    const [row] = await queryPrepared<Record<string, unknown>>(this.db, sql, [tenantId, personId]);
    return row ? this.toEntity(row) : null;
  }

  /**
   * The hand-written statements, built once. Every column by name, never *: they are prepared once
   * per connection (see queryPrepared).
   */
  get statements() {
    const columns = () =>
      this.db
        .getMetadata(PersonEntity)
        .columns.map((c) => `"${c.databaseName}"`)
        .join(', ');
    return (this.built ??= personStatements(columns()));
  }

  /** A row as the driver converted it (timestamps to Dates), as an entity. */
  private toEntity(row: Record<string, unknown>): PersonEntity {
    const metadata = this.db.getMetadata(PersonEntity);
    const person = metadata.create() as PersonEntity;
    for (const c of metadata.columns) c.setEntityValue(person, row[c.databaseName]);
    return person;
  }

  findByUsernameKey(tenantId: string, usernameKey: string): Promise<PersonEntity | null> {
    return this.persons().findOne({ where: { tenantId, usernameKey } });
  }

  existsByPersonId(tenantId: string, personId: string): Promise<boolean> {
    return this.persons().exists({ where: { tenantId, personId } });
  }

  /**
   * Whether the username key belongs to a person of the tenant, other than `exceptId` when given,
   * or to an erased one (as its tombstone): an erased person's username is never given out again.
   */
  existsByUsernameKey(tenantId: string, usernameKey: string, exceptId?: string): Promise<boolean> {
    return this.persons().exists({
      where: {
        tenantId,
        usernameKey: In(takenUsernameKeys(tenantId, usernameKey)),
        ...(exceptId ? { id: Not(exceptId) } : {}),
      },
    });
  }

  /**
   * Inserts the person unless the tenant already has the person id or the username; returns
   * whether it did. ON CONFLICT DO NOTHING: a race lost to the unique keys fails no statement that
   * carries the hash.
   */
  async insertIfNew(person: NewPerson, at: Date): Promise<boolean> {
    const inserted = await this.persons()
      .createQueryBuilder()
      .insert()
      .into(PersonEntity)
      .values(this.newRow(person, at))
      .orIgnore()
      .execute();
    return (inserted.raw as unknown[]).length > 0;
  }

  /** Inserts the person in the caller's transaction; fails on a taken person id or username. */
  async insert(manager: EntityManager, person: NewPerson, at: Date): Promise<void> {
    await this.persons(manager).insert(this.newRow(person, at));
  }

  private newRow(person: NewPerson, at: Date) {
    return {
      ...person,
      credentialsStatus: CredentialsStatus.Active,
      credentialsInvalidatedAt: null,
      credentialsUpdatedAt: at,
      updatedAt: at,
    };
  }

  /** Locks the person's row (FOR UPDATE) for a change of profile; null when the tenant has no such person. */
  lockByPersonId(manager: EntityManager, tenantId: string, personId: string): Promise<PersonEntity | null> {
    return this.persons(manager).findOne({
      where: { tenantId, personId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Locks the person's row (FOR UPDATE) for a change of credentials. */
  lockById(manager: EntityManager, id: string): Promise<PersonEntity | null> {
    return this.persons(manager).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * The profile change and its events as one statement (updateProfileIfUnchanged in statements),
   * applied only while the person's profile is still `expected` (what the change was worked out
   * from). The person as updated, or null when the profile had changed.
   */
  async updateProfileIfUnchanged(
    id: string,
    expected: Profile,
    profile: Profile,
    at: Date,
    outbox: OutboxRows,
  ): Promise<PersonEntity | null> {
    const [row] = await queryPrepared<Record<string, unknown>>(
      this.db,
      this.statements.updateProfileIfUnchanged,
      [
        profile.firstName,
        profile.lastName,
        profile.email,
        profile.phone,
        at,
        id,
        expected.firstName,
        expected.lastName,
        expected.email,
        expected.phone,
        ...outbox,
      ],
    );
    return row ? this.toEntity(row) : null;
  }

  async updateProfile(manager: EntityManager, id: string, profile: Profile, at: Date): Promise<void> {
    await this.persons(manager).update({ id }, { ...profile, updatedAt: at });
  }

  /** Marks the credentials invalidated at `at`; the row is locked by the caller. */
  async invalidateCredentials(manager: EntityManager, id: string, at: Date): Promise<void> {
    await this.persons(manager).update(
      { id },
      {
        credentialsStatus: CredentialsStatus.Invalidated,
        credentialsInvalidatedAt: at,
        credentialsUpdatedAt: at,
        updatedAt: at,
      },
    );
  }

  /**
   * Sets new, active credentials; the row is locked by the caller. The username goes in a
   * statement of its own: should a race have taken it since the check, the failing statement
   * carries no hash (defence in depth; the query logger drops parameters too).
   */
  async replaceCredentials(
    manager: EntityManager,
    id: string,
    credentials: ReplacementCredentials,
    at: Date,
  ): Promise<void> {
    const persons = this.persons(manager);
    await persons.update({ id }, { username: credentials.username, usernameKey: credentials.usernameKey });
    await persons.update(
      { id },
      {
        passwordHash: credentials.passwordHash,
        credentialsStatus: CredentialsStatus.Active,
        credentialsInvalidatedAt: null,
        credentialsUpdatedAt: at,
        updatedAt: at,
      },
    );
  }

  /**
   * Erases the person, whose row the caller locked: the profile and the password hash go, the
   * credentials are invalidated, the username becomes its `tombstone`, and the erasure record stays.
   */
  async erase(manager: EntityManager, id: string, tombstone: string, record: ErasureRecord): Promise<void> {
    await manager.query(
      `UPDATE credentials.persons
          SET first_name = NULL, last_name = NULL, email = NULL, phone = NULL,
              username = $2, username_key = $2, password_hash = '',
              credentials_status = $3, credentials_invalidated_at = coalesce(credentials_invalidated_at, $4),
              credentials_updated_at = $4, updated_at = $4,
              erased_at = $4, erased_by_token_id = $5, erasure_request_id = $6
        WHERE id = $1`,
      [id, tombstone, CredentialsStatus.Invalidated, record.erasedAt, record.tokenId, record.requestId],
    );
  }

  /**
   * Stores a stronger hash of the same password, only while the credentials are still the active
   * ones that were checked: replaced or invalidated credentials are left as they are.
   */
  async upgradePasswordHash(id: string, checkedHash: string, upgradedHash: string): Promise<void> {
    await this.persons().update(
      { id, passwordHash: checkedHash, credentialsStatus: CredentialsStatus.Active },
      { passwordHash: upgradedHash },
    );
  }
}
