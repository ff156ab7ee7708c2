import { z } from 'zod';
import { freeText, isWellFormedText } from '@fincore/platform';
import { CredentialsStatus } from './domain/credentials';
import {
  CREATE_PERSON_EXAMPLE,
  CREDENTIALS_SUMMARY_EXAMPLE,
  PERSON_ERASURE_EXAMPLE,
  PERSON_EXAMPLE,
  SET_CREDENTIALS_EXAMPLE,
  UPDATE_PERSON_EXAMPLE,
} from './person.examples';

export const PERSON_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const PersonId = z
  .string()
  .regex(PERSON_ID_PATTERN, 'must be 1-64 letters, digits, . _ - starting with a letter or digit')
  .describe('Identifier of the person, unique within the tenant')
  .meta({ example: 'demo-person-1' });

export const Username = z
  .string()
  .min(3)
  .max(256)
  .regex(/^[A-Za-z0-9._@+-]+$/, 'may contain letters, digits and . _ @ + -')
  .describe('Login name, unique within the tenant regardless of case')
  .meta({ example: 'demo.user' });

export const NewPassword = z
  .string()
  .max(1024)
  // UTF-8 would replace an unpaired surrogate, so two different passwords would hash alike.
  .refine(isWellFormedText, { message: 'must be valid Unicode (no unpaired surrogates)', abort: true })
  .describe('At least 12 characters, at least 5 different ones, not containing the username or person id')
  .meta({ example: 'correct horse battery staple' });

const FirstName = freeText({ max: 100 }).describe('Given name').meta({ example: 'Ada' });
const LastName = freeText({ max: 100 }).describe('Family name').meta({ example: 'Lovelace' });
const Email = z.email().max(254).describe('E-mail address').meta({ example: 'ada@example.com' });
const Phone = z
  .string()
  .regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 number such as +4930123456')
  .describe('Phone number in E.164 form')
  .meta({ example: '+4930123456' });

export const CreatePersonBody = z
  .object({
    personId: PersonId.optional().describe('Identifier to use; generated (a UUID) when absent'),
    username: Username,
    password: NewPassword,
    firstName: FirstName.optional(),
    lastName: LastName.optional(),
    email: Email.optional(),
    phone: Phone.optional(),
  })
  .strict()
  .meta({
    id: 'CreatePersonRequest',
    description: 'A new person with their credentials (active at once).',
    example: CREATE_PERSON_EXAMPLE,
  });
export type CreatePersonBody = z.infer<typeof CreatePersonBody>;

export const UpdatePersonBody = z
  .object({
    firstName: FirstName.nullable().optional(),
    lastName: LastName.nullable().optional(),
    email: Email.nullable().optional(),
    phone: Phone.nullable().optional(),
  })
  .strict()
  .meta({
    id: 'UpdatePersonRequest',
    description:
      'Profile fields to change: absent keeps, null clears. A change emits PERSON_UPDATED naming the changed fields.',
    example: UPDATE_PERSON_EXAMPLE,
  });
export type UpdatePersonBody = z.infer<typeof UpdatePersonBody>;

export const SetCredentialsBody = z.object({ username: Username, password: NewPassword }).strict().meta({
  id: 'SetCredentialsRequest',
  description: 'New credentials for a person whose credentials were invalidated; they become active at once.',
  example: SET_CREDENTIALS_EXAMPLE,
});
export type SetCredentialsBody = z.infer<typeof SetCredentialsBody>;

const Timestamp = z.iso.datetime().describe('ISO 8601 timestamp, UTC');

export const CredentialsSummary = z
  .object({
    username: z.string().describe('Login name'),
    status: z.enum(CredentialsStatus).describe('ACTIVE: usable for authentication; INVALIDATED: refused'),
    invalidatedAt: Timestamp.nullable().describe('When the credentials were invalidated; null while active'),
    updatedAt: Timestamp.describe('When the credentials last changed'),
  })
  .meta({
    id: 'CredentialsSummary',
    description: 'The state of a person’s credentials; never any password or hash.',
    example: CREDENTIALS_SUMMARY_EXAMPLE,
  });

export const PersonResponse = z
  .object({
    personId: z.string().describe('Identifier of the person'),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    credentials: CredentialsSummary,
    createdAt: Timestamp,
    updatedAt: Timestamp.describe('When the profile or credentials last changed'),
  })
  .meta({
    id: 'Person',
    example: PERSON_EXAMPLE,
  });
export type PersonResponse = z.infer<typeof PersonResponse>;

export const PersonErasureResponse = z
  .object({
    personId: z.string().describe('Identifier of the erased person; it stays taken'),
    status: z.literal('ERASED'),
    erasedAt: Timestamp.describe('When the erasure took effect'),
    erasedByTokenId: z.string().describe('The API token that erased the person'),
    requestId: z.string().nullable().describe('Request id (x-request-id) of the erasing request'),
  })
  .meta({
    id: 'PersonErasure',
    description: 'The erasure record: what is kept of an erased person. No personal data.',
    example: PERSON_ERASURE_EXAMPLE,
  });
export type PersonErasureResponse = z.infer<typeof PersonErasureResponse>;
