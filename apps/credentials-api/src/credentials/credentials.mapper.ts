import type { CredentialsState } from '../persons/domain/credentials';
import type { AuthenticateResponse, InvalidateCredentialsResponse } from './credentials.schemas';

/** Invalidated credentials, with the time of their first invalidation. */
export function mapInvalidation(personId: string, state: CredentialsState): InvalidateCredentialsResponse {
  return { personId, status: state.status, invalidatedAt: state.invalidatedAt!.toISOString() };
}

export function mapAuthentication(personId: string, authenticatedAt: Date): AuthenticateResponse {
  return { authenticated: true, personId, authenticatedAt: authenticatedAt.toISOString() };
}
