import type { PersonEntity } from './entities/person.entity';
import type { Profile } from './domain/profile';
import type { PersonResponse } from './persons.schemas';

export function toProfile(person: PersonEntity): Profile {
  return { firstName: person.firstName, lastName: person.lastName, email: person.email, phone: person.phone };
}

/** The one place a person leaves the service: no hash, no key, no internal id. */
export function toPersonResponse(person: PersonEntity): PersonResponse {
  return {
    personId: person.personId,
    ...toProfile(person),
    credentials: {
      username: person.username,
      status: person.credentialsStatus,
      invalidatedAt: person.credentialsInvalidatedAt?.toISOString() ?? null,
      updatedAt: person.credentialsUpdatedAt.toISOString(),
    },
    createdAt: person.createdAt.toISOString(),
    updatedAt: person.updatedAt.toISOString(),
  };
}
