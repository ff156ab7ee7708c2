import { z } from 'zod';
import { CREDENTIALS_STATUSES } from './domain/credentials';

/** PostgreSQL text cannot hold NUL: refused as malformed, before it can reach a query as a 500. */
export const NO_NUL = [/^[^\0]*$/, 'must not contain NUL characters'] as const;

// Bounds only: whatever is within them gets the one uniform answer, so the shape tells nothing.
const GivenUsername = z
  .string()
  .min(1)
  .max(256)
  .regex(...NO_NUL)
  .describe('The person’s username')
  .meta({ example: 'demo.user' });
const GivenPassword = z
  .string()
  .min(1)
  .max(1024)
  .describe('The person’s password')
  .meta({ example: 'Demo-Passw0rd-2025' });

export const InvalidateCredentialsBody = z
  .object({
    personId: z
      .string()
      .min(1)
      .max(64)
      .regex(...NO_NUL)
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
    example: { personId: 'demo-person-1', username: 'demo.user', password: 'Demo-Passw0rd-2025' },
  });
export type InvalidateCredentialsBody = z.infer<typeof InvalidateCredentialsBody>;

export const InvalidateCredentialsResponse = z
  .object({
    personId: z.string().describe('The person whose credentials are invalid'),
    status: z.enum(CREDENTIALS_STATUSES).describe('Always INVALIDATED after this operation'),
    invalidatedAt: z.iso
      .datetime()
      .describe('When the credentials were invalidated (the first time, on a repeat)'),
  })
  .meta({
    id: 'InvalidateCredentialsResponse',
    example: { personId: 'demo-person-1', status: 'INVALIDATED', invalidatedAt: '2025-11-21T10:15:30.123Z' },
  });
export type InvalidateCredentialsResponse = z.infer<typeof InvalidateCredentialsResponse>;

export const AuthenticateBody = z
  .object({ username: GivenUsername, password: GivenPassword })
  .strict()
  .meta({
    id: 'AuthenticateRequest',
    description: 'Credentials to check.',
    example: { username: 'demo.user', password: 'Demo-Passw0rd-2025' },
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
    example: { authenticated: true, personId: 'demo-person-1', authenticatedAt: '2025-11-21T10:00:00.000Z' },
  });
export type AuthenticateResponse = z.infer<typeof AuthenticateResponse>;
