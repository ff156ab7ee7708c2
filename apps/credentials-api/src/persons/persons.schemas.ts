import { z } from 'zod';
import { NO_NUL } from '../credentials/credentials.schemas';
import { CREDENTIALS_STATUSES } from '../credentials/domain/credentials';

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
  .describe('At least 12 characters, at least 5 different ones, not containing the username or person id')
  .meta({ example: 'correct horse battery staple' });

const FirstName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(...NO_NUL)
  .describe('Given name')
  .meta({ example: 'Ada' });
const LastName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(...NO_NUL)
  .describe('Family name')
  .meta({ example: 'Lovelace' });
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
    example: {
      personId: 'person-4711',
      username: 'ada.lovelace',
      password: 'analytical engine 1843',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+4930123456',
    },
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
    example: { lastName: 'King', phone: null },
  });
export type UpdatePersonBody = z.infer<typeof UpdatePersonBody>;

export const SetCredentialsBody = z
  .object({ username: Username, password: NewPassword })
  .strict()
  .meta({
    id: 'SetCredentialsRequest',
    description:
      'New credentials for a person whose credentials were invalidated; they become active at once.',
    example: { username: 'demo.user', password: 'a brand new passphrase 2' },
  });
export type SetCredentialsBody = z.infer<typeof SetCredentialsBody>;

const Timestamp = z.iso.datetime().describe('ISO 8601 timestamp, UTC');

export const CredentialsSummary = z
  .object({
    username: z.string().describe('Login name'),
    status: z.enum(CREDENTIALS_STATUSES).describe('ACTIVE: usable for authentication; INVALIDATED: refused'),
    invalidatedAt: Timestamp.nullable().describe('When the credentials were invalidated; null while active'),
    updatedAt: Timestamp.describe('When the credentials last changed'),
  })
  .meta({
    id: 'CredentialsSummary',
    description: 'The state of a person’s credentials; never any password or hash.',
    example: {
      username: 'demo.user',
      status: 'ACTIVE',
      invalidatedAt: null,
      updatedAt: '2025-11-21T09:00:00.000Z',
    },
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
    example: {
      personId: 'demo-person-1',
      firstName: 'Demo',
      lastName: 'User',
      email: 'demo.user@example.com',
      phone: null,
      credentials: {
        username: 'demo.user',
        status: 'ACTIVE',
        invalidatedAt: null,
        updatedAt: '2025-11-21T09:00:00.000Z',
      },
      createdAt: '2025-11-21T09:00:00.000Z',
      updatedAt: '2025-11-21T09:00:00.000Z',
    },
  });
export type PersonResponse = z.infer<typeof PersonResponse>;
