import { z } from 'zod';
import { freeText } from '@fincore/platform';
import { PRICE_LIST_LEVELS } from '../domain/pricing-model';
import { AccountIdField, CalendarDate, CardIdField } from '../common.schemas';
import { FeeRuleSchema } from './fee-rule.schemas';
import {
  PRICE_LIST_EXAMPLE,
  PRICE_LIST_LIST_EXAMPLE,
  PRICE_LIST_REQUEST_EXAMPLE,
} from './price-list.examples';

export const PriceListBody = z
  .object({
    code: z
      .string()
      .regex(/^[A-Z0-9][A-Z0-9_.-]{0,63}$/, 'upper-case letters, digits, _ . - (1 to 64)')
      .describe('Unique per tenant'),
    name: freeText({ max: 200 }).describe('Name shown to the pricing team'),
    level: z.enum(PRICE_LIST_LEVELS).describe('TENANT default, or for one account, or for one card'),
    accountId: AccountIdField.optional().describe('Required for level ACCOUNT, refused otherwise'),
    cardId: CardIdField.optional().describe('Required for level CARD, refused otherwise'),
    validFrom: CalendarDate.describe('First day the list applies (inclusive)'),
    validTo: CalendarDate.nullable()
      .default(null)
      .describe('Last day the list applies (inclusive); null = open-ended'),
    rules: z.array(FeeRuleSchema).max(200).describe('Fee rules in priority order'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.level === 'ACCOUNT' && !v.accountId)
      ctx.addIssue({ code: 'custom', path: ['accountId'], message: 'required for level ACCOUNT' });
    if (v.level === 'CARD' && !v.cardId)
      ctx.addIssue({ code: 'custom', path: ['cardId'], message: 'required for level CARD' });
    if (v.level !== 'ACCOUNT' && v.accountId)
      ctx.addIssue({ code: 'custom', path: ['accountId'], message: `not allowed for level ${v.level}` });
    if (v.level !== 'CARD' && v.cardId)
      ctx.addIssue({ code: 'custom', path: ['cardId'], message: `not allowed for level ${v.level}` });
    if (v.validTo !== null && v.validTo < v.validFrom)
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'must not be before validFrom' });
  })
  .meta({ id: 'PriceListRequest', example: PRICE_LIST_REQUEST_EXAMPLE });

export const PriceListResponse = z
  .object({
    id: z.uuid(),
    code: z.string(),
    name: z.string(),
    level: z.enum(PRICE_LIST_LEVELS),
    accountId: z.string().nullable(),
    cardId: z.string().nullable(),
    validFrom: z.string(),
    validTo: z.string().nullable(),
    rules: z.array(FeeRuleSchema),
    version: z.number().int().describe('Increases with every change'),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PriceList', example: PRICE_LIST_EXAMPLE });

export const PriceListListResponse = z
  .object({ items: z.array(PriceListResponse) })
  .meta({ id: 'PriceListList', example: PRICE_LIST_LIST_EXAMPLE });

export const PriceListQuery = z
  .object({
    level: z.enum(PRICE_LIST_LEVELS).optional().describe('Only price lists of this level'),
    accountId: AccountIdField.optional(),
    cardId: CardIdField.optional(),
  })
  .strict();

export const PriceListId = z.uuid('a price list id (uuid)').describe('Price list id');
