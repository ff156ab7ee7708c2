import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Not, QueryFailedError, Repository } from 'typeorm';
import { Principal, ProblemException } from '@fincore/platform';
import { UnitOfWork } from '@fincore/events';
import {
  canReplaceCredentials,
  replacementChangedFields,
  usernameKey,
} from '../credentials/domain/credentials';
import { passwordPolicyViolations } from '../credentials/domain/password-policy';
import { LoginThrottle } from '../credentials/login-throttle';
import { PasswordHasher } from '../credentials/password-hasher';
import { applyProfilePatch, changedProfileFields } from './domain/profile';
import { PersonEntity } from './entities/person.entity';
import { toPersonResponse, toProfile } from './mapper';
import { CreatePersonBody, PersonResponse, SetCredentialsBody, UpdatePersonBody } from './persons.schemas';

const personNotFound = (personId: string) => new ProblemException('person_not_found', 404, { personId });

/** True when a write failed on the per-tenant username key (a race lost after the check). */
function isUsernameTaken(error: unknown): boolean {
  const driverError = (error as QueryFailedError & { driverError?: { code?: string; constraint?: string } })
    ?.driverError;
  return (
    error instanceof QueryFailedError &&
    driverError?.code === '23505' &&
    driverError.constraint === 'persons_tenant_username'
  );
}

const usernameTaken = () => new ProblemException('username_taken', 409);

/** New credentials replace only invalidated ones (409 otherwise). */
function assertReplaceable(person: PersonEntity): void {
  const current = { status: person.credentialsStatus, invalidatedAt: person.credentialsInvalidatedAt };
  if (!canReplaceCredentials(current)) {
    throw new ProblemException('credentials_active', 409, { personId: person.personId });
  }
}

function assertPasswordPolicy(password: string, context: { username: string; personId: string }): void {
  const violations = passwordPolicyViolations(password, context);
  if (violations.length) throw new ProblemException('password_policy_violated', 422, {}, violations);
}

/** Persons of a tenant: create with credentials, read, change the profile, set new credentials. */
@Injectable()
export class PersonsService {
  constructor(
    @InjectRepository(PersonEntity) private readonly persons: Repository<PersonEntity>,
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
    // ON CONFLICT DO NOTHING: a race lost to the unique keys fails no statement that carries the
    // hash, and is told apart by reading afterwards.
    const inserted = await this.persons
      .createQueryBuilder()
      .insert()
      .into(PersonEntity)
      .values({
        tenantId: principal.tenantId,
        personId,
        firstName: body.firstName ?? null,
        lastName: body.lastName ?? null,
        email: body.email ?? null,
        phone: body.phone ?? null,
        username: body.username,
        usernameKey: key,
        passwordHash,
        credentialsStatus: 'ACTIVE',
        credentialsInvalidatedAt: null,
        credentialsUpdatedAt: now,
        updatedAt: now,
      })
      .orIgnore()
      .execute();
    if (!(inserted.raw as unknown[]).length) {
      await this.assertNewPerson(principal.tenantId, personId, key);
      throw usernameTaken();
    }
    return this.get(principal, personId);
  }

  /** 409 when the tenant already has the person id or the username. */
  private async assertNewPerson(tenantId: string, personId: string, key: string): Promise<void> {
    if (await this.persons.exists({ where: { tenantId, personId } })) {
      throw new ProblemException('person_exists', 409, { personId });
    }
    if (await this.persons.exists({ where: { tenantId, usernameKey: key } })) throw usernameTaken();
  }

  async get(principal: Principal, personId: string): Promise<PersonResponse> {
    const person = await this.persons.findOne({ where: { tenantId: principal.tenantId, personId } });
    if (!person) throw personNotFound(personId);
    return toPersonResponse(person);
  }

  /** Changes profile fields; PERSON_UPDATED names what changed, and nothing is emitted when nothing did. */
  async update(principal: Principal, personId: string, patch: UpdatePersonBody): Promise<PersonResponse> {
    return this.uow.run(async (tx) => {
      const repo = tx.manager.getRepository(PersonEntity);
      const person = await repo.findOne({
        where: { tenantId: principal.tenantId, personId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!person) throw personNotFound(personId);
      const current = toProfile(person);
      const changedFields = changedProfileFields(current, patch);
      if (!changedFields.length) return toPersonResponse(person);
      Object.assign(person, applyProfilePatch(current, patch), { updatedAt: new Date() });
      await repo.update({ id: person.id }, { ...toProfile(person), updatedAt: person.updatedAt });
      await tx.emit('PERSON_UPDATED', principal.tenantCode, {
        personId,
        changedFields,
        person: { personId, ...toProfile(person) },
      });
      return toPersonResponse(person);
    });
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
    const before = await this.persons.findOne({ where: { tenantId: principal.tenantId, personId } });
    if (!before) throw personNotFound(personId);
    assertReplaceable(before);
    const key = usernameKey(body.username);
    if (
      await this.persons.exists({
        where: { tenantId: principal.tenantId, usernameKey: key, id: Not(before.id) },
      })
    )
      throw usernameTaken();
    if (await this.hasher.verify(before.passwordHash, body.password))
      throw new ProblemException('password_reused', 422);
    const passwordHash = await this.hasher.hash(body.password);

    let result: PersonResponse;
    try {
      result = await this.uow.run(async (tx) => {
        const repo = tx.manager.getRepository(PersonEntity);
        const person = await repo.findOne({ where: { id: before.id }, lock: { mode: 'pessimistic_write' } });
        if (!person) throw personNotFound(personId);
        // Someone else set credentials between our checks and the lock: theirs stand.
        assertReplaceable(person);
        const usernameChanged = person.username !== body.username;
        const now = new Date();
        // The username in a statement of its own: should a race have taken it since the check, the
        // failing statement carries no hash (defence in depth; the query logger drops parameters).
        await repo.update({ id: person.id }, { username: body.username, usernameKey: key });
        Object.assign(person, {
          username: body.username,
          usernameKey: key,
          passwordHash,
          credentialsStatus: 'ACTIVE',
          credentialsInvalidatedAt: null,
          credentialsUpdatedAt: now,
          updatedAt: now,
        });
        await repo.update(
          { id: person.id },
          {
            passwordHash,
            credentialsStatus: 'ACTIVE',
            credentialsInvalidatedAt: null,
            credentialsUpdatedAt: now,
            updatedAt: now,
          },
        );
        await tx.emit('PERSON_UPDATED', principal.tenantCode, {
          personId,
          changedFields: replacementChangedFields(usernameChanged),
          person: { personId, ...toProfile(person) },
          credentials: { status: 'ACTIVE', invalidatedAt: null },
        });
        return toPersonResponse(person);
      });
    } catch (error) {
      throw isUsernameTaken(error) ? usernameTaken() : error;
    }
    await this.throttle.clear(principal.tenantId, body.username);
    return result;
  }
}
