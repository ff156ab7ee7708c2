import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '@fincore/platform';
import { OutboxRows, Transaction, UnitOfWork } from '@fincore/events';
import {
  canReplaceCredentials,
  CredentialsStatus,
  replacementChangedFields,
  usernameKey,
} from './domain/credentials';
import { isErased } from './domain/erasure';
import { passwordPolicyViolations } from './domain/password-policy';
import { applyProfilePatch, changedProfileFields, profileOf } from './domain/profile';
import { PersonEntity } from './person.entity';
import { LoginThrottle } from './login-throttle';
import { mapPerson } from './person.mapper';
import {
  credentialsActive,
  passwordPolicyViolated,
  passwordReused,
  personErased,
  personExists,
  personNotFound,
  usernameTaken,
} from './person.problems';
import { PasswordHasher } from './password-hasher';
import { isUsernameConflict, PersonRepository } from './person.repository';
import { CreatePersonBody, PersonResponse, SetCredentialsBody, UpdatePersonBody } from './person.schemas';

/** The person as found: 404 when there is none, 410 when they were erased. */
function existing(person: PersonEntity | null, personId: string): PersonEntity {
  if (!person) throw personNotFound(personId);
  if (isErased(person)) throw personErased(personId);
  return person;
}

/** New credentials replace only invalidated ones (409 otherwise). */
function assertReplaceable(person: PersonEntity): void {
  const current = { status: person.credentialsStatus, invalidatedAt: person.credentialsInvalidatedAt };
  if (!canReplaceCredentials(current)) throw credentialsActive(person.personId);
}

function assertPasswordPolicy(password: string, context: { username: string; personId: string }): void {
  const violations = passwordPolicyViolations(password, context);
  if (violations.length) throw passwordPolicyViolated(violations);
}

/** Persons of a tenant: create with credentials, read, change the profile, set new credentials. */
@Injectable()
export class PersonsService {
  constructor(
    @Inject(PersonRepository) private readonly persons: PersonRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    @Inject(LoginThrottle) private readonly throttle: LoginThrottle,
  ) {}

  async create(principal: Principal, body: CreatePersonBody): Promise<PersonResponse> {
    const personId = body.personId ?? randomUUID();
    assertPasswordPolicy(body.password, { username: body.username, personId });
    const key = usernameKey(body.username);
    // Checked before hashing, so a conflict costs none.
    await this.assertNewPerson(principal.tenantId, personId, key);
    const now = new Date();
    const passwordHash = await this.hasher.hash(body.password);
    const inserted = await this.persons.insertIfNew(
      {
        tenantId: principal.tenantId,
        personId,
        firstName: body.firstName ?? null,
        lastName: body.lastName ?? null,
        email: body.email ?? null,
        phone: body.phone ?? null,
        username: body.username,
        usernameKey: key,
        passwordHash,
      },
      now,
    );
    if (!inserted) {
      // A race lost to the unique keys: reading again tells which one.
      await this.assertNewPerson(principal.tenantId, personId, key);
      throw usernameTaken();
    }
    return this.get(principal, personId);
  }

  /** 409 when the tenant already has the person id or the username. */
  private async assertNewPerson(tenantId: string, personId: string, key: string): Promise<void> {
    if (await this.persons.existsByPersonId(tenantId, personId)) {
      throw personExists(personId);
    }
    if (await this.persons.existsByUsernameKey(tenantId, key)) throw usernameTaken();
  }

  async get(principal: Principal, personId: string): Promise<PersonResponse> {
    return mapPerson(existing(await this.persons.findByPersonId(principal.tenantId, personId), personId));
  }

  /**
   * Changes profile fields; PERSON_UPDATED names what changed, and nothing is emitted when nothing
   * did. An effective change goes as one statement, worked out from the person as read now and
   * applied only while their profile is still so; otherwise, and for a no-op or an unknown person,
   * under the row lock (see UnitOfWork.changeAsReadOrLocked).
   */
  update(principal: Principal, personId: string, patch: UpdatePersonBody): Promise<PersonResponse> {
    return this.uow.changeAsReadOrLocked({
      read: () => this.persons.findByPersonId(principal.tenantId, personId),
      plan: (read) => this.planInOneStatement(principal, read, patch),
      locked: (tx) => this.updateLocked(tx, principal, personId, patch),
    });
  }

  /** The profile change worked out from the person as read, as one statement; undefined for a no-op. */
  private planInOneStatement(principal: Principal, read: PersonEntity, patch: UpdatePersonBody) {
    if (isErased(read)) return undefined;
    const current = profileOf(read);
    const changedFields = changedProfileFields(current, patch);
    if (!changedFields.length) return undefined;
    const profile = applyProfilePatch(current, patch);
    const { personId } = read;
    return {
      type: 'PERSON_UPDATED' as const,
      tenantCode: principal.tenantCode,
      data: [{ personId, changedFields, person: { personId, ...profile } }],
      write: async (outbox: OutboxRows) => {
        const updated = await this.persons.updateProfileIfUnchanged(
          read.id,
          current,
          profile,
          new Date(),
          outbox,
        );
        return updated && mapPerson(updated);
      },
    };
  }

  private async updateLocked(
    tx: Transaction,
    principal: Principal,
    personId: string,
    patch: UpdatePersonBody,
  ): Promise<PersonResponse> {
    const person = existing(
      await this.persons.lockByPersonId(tx.manager, principal.tenantId, personId),
      personId,
    );
    const current = profileOf(person);
    const changedFields = changedProfileFields(current, patch);
    if (!changedFields.length) return mapPerson(person);
    const profile = applyProfilePatch(current, patch);
    const updatedAt = new Date();
    await this.persons.updateProfile(tx.manager, person.id, profile, updatedAt);
    await tx.emit('PERSON_UPDATED', principal.tenantCode, {
      personId,
      changedFields,
      person: { personId, ...profile },
    });
    return mapPerson(Object.assign(person, profile, { updatedAt }));
  }

  /**
   * New credentials for a person whose credentials were invalidated: active again at once, with a
   * PERSON_UPDATED. Active credentials must be invalidated first (409); the invalidated password
   * may not come back (422).
   */
  async setCredentials(
    principal: Principal,
    personId: string,
    body: SetCredentialsBody,
  ): Promise<PersonResponse> {
    assertPasswordPolicy(body.password, { username: body.username, personId });
    const before = existing(await this.persons.findByPersonId(principal.tenantId, personId), personId);
    assertReplaceable(before);
    const key = usernameKey(body.username);
    if (await this.persons.existsByUsernameKey(principal.tenantId, key, before.id)) throw usernameTaken();
    if (await this.hasher.verify(before.passwordHash, body.password)) throw passwordReused();
    const passwordHash = await this.hasher.hash(body.password);

    let result: PersonResponse;
    try {
      result = await this.uow.run(async (tx) => {
        const person = existing(await this.persons.lockById(tx.manager, before.id), personId);
        // Someone else set credentials between our checks and the lock: theirs stand.
        assertReplaceable(person);
        const usernameChanged = person.username !== body.username;
        const now = new Date();
        const credentials = { username: body.username, usernameKey: key, passwordHash };
        await this.persons.replaceCredentials(tx.manager, person.id, credentials, now);
        Object.assign(person, credentials, {
          credentialsStatus: CredentialsStatus.Active,
          credentialsInvalidatedAt: null,
          credentialsUpdatedAt: now,
          updatedAt: now,
        });
        await tx.emit('PERSON_UPDATED', principal.tenantCode, {
          personId,
          changedFields: replacementChangedFields(usernameChanged),
          person: { personId, ...profileOf(person) },
          credentials: { status: CredentialsStatus.Active, invalidatedAt: null },
        });
        return mapPerson(person);
      });
    } catch (error) {
      throw isUsernameConflict(error) ? usernameTaken() : error;
    }
    await this.throttle.clear(principal.tenantId, body.username);
    return result;
  }
}
