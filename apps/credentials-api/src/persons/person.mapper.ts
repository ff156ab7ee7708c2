import { profileOf } from './domain/profile';
import type { PersonEntity } from './person.entity';
import type { PersonErasureResponse, PersonResponse } from './person.schemas';

/** The one place a person leaves the service: no hash, no key, no internal id. */
export function mapPerson(person: PersonEntity): PersonResponse {
  return {
    personId: person.personId,
    ...profileOf(person),
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

/** The erasure record of an erased person (erasedAt and erasedByTokenId are set). */
export function mapErasure(person: PersonEntity): PersonErasureResponse {
  return {
    personId: person.personId,
    status: 'ERASED',
    erasedAt: person.erasedAt!.toISOString(),
    erasedByTokenId: person.erasedByTokenId!,
    requestId: person.erasureRequestId,
  };
}
