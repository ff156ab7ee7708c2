import { z } from 'zod';
import { freeText } from '@fincore/platform';
import {
  LABEL_EXAMPLE,
  LABEL_LIST_EXAMPLE,
  LABEL_REQUEST_EXAMPLE,
  TRANSACTION_TYPE_EXAMPLE,
  TRANSACTION_TYPE_LIST_EXAMPLE,
  TRANSACTION_TYPE_REQUEST_EXAMPLE,
} from './catalog.examples';

export const TransactionTypeBody = z
  .object({
    name: freeText({ max: 200 }).describe('Name shown to the pricing team'),
    zeroAmountAllowed: z
      .boolean()
      .default(false)
      .describe('Whether the type may be quoted with amount 0 (e.g. balance inquiry)'),
  })
  .strict()
  .meta({ id: 'TransactionTypeRequest', example: TRANSACTION_TYPE_REQUEST_EXAMPLE });

export const TransactionTypeResponse = z
  .object({ code: z.string(), name: z.string(), zeroAmountAllowed: z.boolean() })
  .meta({ id: 'TransactionType', example: TRANSACTION_TYPE_EXAMPLE });

export const TransactionTypeList = z
  .object({ items: z.array(TransactionTypeResponse) })
  .meta({ id: 'TransactionTypeList', example: TRANSACTION_TYPE_LIST_EXAMPLE });

export const LabelBody = z
  .object({ name: freeText({ max: 200 }).describe('What the label means') })
  .strict()
  .meta({ id: 'LabelRequest', example: LABEL_REQUEST_EXAMPLE });

export const LabelResponse = z
  .object({ code: z.string(), name: z.string() })
  .meta({ id: 'Label', example: LABEL_EXAMPLE });

export const LabelList = z
  .object({ items: z.array(LabelResponse) })
  .meta({ id: 'LabelList', example: LABEL_LIST_EXAMPLE });
