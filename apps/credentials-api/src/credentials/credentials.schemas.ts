import { z } from 'zod';
import { CredentialsStatus } from '../persons/domain/credentials';
import { freeText, isWellFormedText } from '@fincore/platform';
import {
  AUTHENTICATE_EXAMPLE,
  AUTHENTICATED_EXAMPLE,
  INVALIDATE_CREDENTIALS_EXAMPLE,
  INVALIDATED_CREDENTIALS_EXAMPLE,
} from './credentials.examples';

// Bounds only: whatever is within them gets the one uniform answer, so the shape tells nothing.
const GivenUsername = freeText({ max: 256, trim: false })
  .describe('The person’s username')
  .meta({ example: 'demo.user' });
const GivenPassword = z
  .string()
  .min(1)
  .max(1024)
  // UTF-8 would replace an unpaired surrogate: it would match a password with U+FFFD in its place.
  .refine(isWellFormedText, { message: 'must be valid Unicode (no unpaired surrogates)', abort: true })
  .describe('The person’s password')
  .meta({ example: 'Demo-Passw0rd-2025' });

export const InvalidateCredentialsBody = z
  .object({
    personId: freeText({ max: 64, trim: false })
      .describe('Identifier of the customer (person)')
      .meta({ example: 'demo-person-1' }),
    username: GivenUsername.describe('The customer’s username; must be that of the person personId'),
    password: GivenPassword.describe('The customer’s password; must be that of the person personId'),
  })
  .strict()
  .meta({
    id: 'InvalidateCredentialsRequest',
    description:
      'Proof of the credentials to invalidate: all three must belong to one person of the caller’s tenant.',
    example: INVALIDATE_CREDENTIALS_EXAMPLE,
  });
export type InvalidateCredentialsBody = z.infer<typeof InvalidateCredentialsBody>;

export const InvalidateCredentialsResponse = z
  .object({
    personId: z.string().describe('The person whose credentials are invalid'),
    status: z.enum(CredentialsStatus).describe('Always INVALIDATED after this operation'),
    invalidatedAt: z.iso
      .datetime()
      .describe('When the credentials were invalidated (the first time, on a repeat)'),
  })
  .meta({
    id: 'InvalidateCredentialsResponse',
    example: INVALIDATED_CREDENTIALS_EXAMPLE,
  });
export type InvalidateCredentialsResponse = z.infer<typeof InvalidateCredentialsResponse>;

export const AuthenticateBody = z.object({ username: GivenUsername, password: GivenPassword }).strict().meta({
  id: 'AuthenticateRequest',
  description: 'Credentials to check.',
  example: AUTHENTICATE_EXAMPLE,
});
export type AuthenticateBody = z.infer<typeof AuthenticateBody>;

export const AuthenticateResponse = z
  .object({
    authenticated: z.literal(true).describe('The credentials are valid and active'),
    personId: z.string().describe('The person the credentials belong to'),
    authenticatedAt: z.iso.datetime().describe('When the check succeeded'),
  })
  .meta({
    id: 'AuthenticateResponse',
    example: AUTHENTICATED_EXAMPLE,
  });
export type AuthenticateResponse = z.infer<typeof AuthenticateResponse>;
