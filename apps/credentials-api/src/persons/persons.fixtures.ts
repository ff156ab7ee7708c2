import type { Principal } from '@fincore/platform';
import { usernameKey } from './domain/credentials';
import { PersonEntity } from './person.entity';

/** Builders for the unit specs of the persons and credentials services. */

export const PRINCIPAL: Principal = {
  tokenId: 'token-1',
  tenantId: 'tenant-1',
  tenantCode: 'ACME',
  scopes: [],
};

/** A stored person with active credentials; `overrides` change any column. */
export function aPerson(overrides: Partial<PersonEntity> = {}): PersonEntity {
  const at = new Date('2025-11-21T09:00:00.000Z');
  const username = overrides.username ?? 'ada.lovelace';
  return Object.assign(new PersonEntity(), {
    id: 'row-1',
    tenantId: PRINCIPAL.tenantId,
    personId: 'person-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: null,
    username,
    usernameKey: usernameKey(username),
    passwordHash: '$argon2id$stored',
    credentialsStatus: 'ACTIVE',
    credentialsInvalidatedAt: null,
    credentialsUpdatedAt: at,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  });
}

/** The same person after an invalidation. */
export function anInvalidatedPerson(overrides: Partial<PersonEntity> = {}): PersonEntity {
  const at = new Date('2025-11-21T10:00:00.000Z');
  return aPerson({
    credentialsStatus: 'INVALIDATED',
    credentialsInvalidatedAt: at,
    credentialsUpdatedAt: at,
    ...overrides,
  });
}
