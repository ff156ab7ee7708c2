import { z } from 'zod';
import { AccountId } from '../../identifiers.schemas';
import { ACCOUNT_EXAMPLE, CREATE_ACCOUNT_EXAMPLE } from './account.examples';
import { AccountStatus, AccountType } from '../domain/account';

export const CreateAccountBody = z
  .object({
    accountId: AccountId,
    type: z.enum(AccountType).describe('Kind of account the cards draw on'),
    currencyCode: z
      .string()
      .regex(/^[A-Z]{3}$/, 'an ISO 4217 alphabetic code, e.g. EUR')
      .describe('ISO 4217 currency of the account'),
    status: z
      .enum([AccountStatus.ACTIVE, AccountStatus.BLOCKED])
      .default(AccountStatus.ACTIVE)
      .describe('Initial status; ACTIVE when omitted'),
  })
  .strict()
  .meta({ id: 'CreateAccountRequest', example: CREATE_ACCOUNT_EXAMPLE });

export const AccountResponse = z
  .object({
    accountId: AccountId,
    type: z.enum(AccountType),
    currencyCode: z.string().describe('ISO 4217 currency'),
    status: z.enum(AccountStatus),
    createdAt: z.iso.datetime().describe('When the account was created'),
  })
  .meta({ id: 'Account', example: ACCOUNT_EXAMPLE });
