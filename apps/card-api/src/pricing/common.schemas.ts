import { z } from 'zod';
import { decimalString } from '@fincore/platform';
import { isCalendarDate } from './domain/calendar';
import { isKnownCurrency } from './domain/currency';
import { AccountId, CardId } from './card-context';

// Building blocks of the pricing schemas, used by more than one aggregate.

/** Account and card ids: the card context's business identifiers, with the demo data as examples. */
export const AccountIdField = AccountId.describe('Technical identifier of the card account').meta({
  example: 'ACC-DEMO-001',
});
export const CardIdField = CardId.describe('Technical identifier of the card').meta({
  example: 'CARD-DEMO-VISA-1',
});

/** Codes of the tenant's catalogs (transaction types, labels, fee types). */
export const CatalogCode = z
  .string()
  .min(1, 'must not be empty')
  .max(40, 'at most 40 characters')
  .regex(/^[A-Z][A-Z0-9_]*$/, 'upper-case letters, digits and _, starting with a letter');

export const CalendarDate = z
  .string()
  // Aborting: a date refused here is not compared with another one as well.
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'a date written YYYY-MM-DD', abort: true })
  .refine(isCalendarDate, { message: 'this date does not exist in the calendar', abort: true })
  .describe('A calendar date, YYYY-MM-DD');

export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: 'an ISO 4217 alphabetic code, e.g. EUR', abort: true })
  .refine(isKnownCurrency, { message: 'not an active ISO 4217 currency code', abort: true })
  .describe('ISO 4217 currency code');

/** Figures of price lists and rates travel as decimal strings: no binary floating point on the way. */
export const decimalFigure = (what: string, example: string) =>
  decimalString({ integerDigits: 12, fractionDigits: 10 }).describe(what).meta({ example });

function uniqueItems(values: readonly string[], ctx: z.RefinementCtx, what: string) {
  const seen = new Set<string>();
  values.forEach((value, i) => {
    if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [i], message: `duplicate ${what} ${value}` });
    seen.add(value);
  });
}

/** A list of distinct catalog codes. */
export const codeList = (what: string, min: number) =>
  z
    .array(CatalogCode)
    .min(min)
    .max(50)
    .superRefine((v, ctx) => uniqueItems(v, ctx, what));
