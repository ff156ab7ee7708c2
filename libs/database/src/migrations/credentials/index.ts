import { CredentialsPersons1763700000200 } from './1763700000200-credentials-persons';

/** Migrations of the credentials schema, oldest first. */
export const CREDENTIALS_MIGRATIONS: Function[] = [CredentialsPersons1763700000200];
