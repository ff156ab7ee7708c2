import { CredentialsPersons1763700000200 } from './1763700000200-credentials-persons';
import { CredentialsPersonsErasure1763700001200 } from './1763700001200-credentials-persons-erasure';

/** Migrations of the credentials schema, oldest first. */
export const CREDENTIALS_MIGRATIONS: Function[] = [
  CredentialsPersons1763700000200,
  CredentialsPersonsErasure1763700001200,
];
