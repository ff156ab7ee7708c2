import Decimal from 'decimal.js';
import { z } from 'zod';
import { CalendarDate, CurrencyCode, decimalFigure } from '../common.schemas';
import { EXCHANGE_RATE_EXAMPLE, EXCHANGE_RATE_LIST_EXAMPLE } from './exchange-rate.examples';

export const ExchangeRateBody = z
  .object({
    baseCurrency: CurrencyCode,
    quoteCurrency: CurrencyCode,
    validFrom: CalendarDate.describe('The rate holds from this date until the next rate of the pair'),
    rate: decimalFigure('Units of quoteCurrency for one unit of baseCurrency', '0.92').refine(
      (v) => new Decimal(v).gt(0),
      'must be positive',
    ),
  })
  .strict()
  .refine((v) => v.baseCurrency !== v.quoteCurrency, {
    path: ['quoteCurrency'],
    message: 'must differ from baseCurrency',
  })
  .meta({ id: 'ExchangeRateRequest', example: EXCHANGE_RATE_EXAMPLE });

export const ExchangeRateResponse = z
  .object({ baseCurrency: z.string(), quoteCurrency: z.string(), validFrom: z.string(), rate: z.string() })
  .meta({ id: 'ExchangeRate', example: EXCHANGE_RATE_EXAMPLE });

export const ExchangeRateList = z
  .object({ items: z.array(ExchangeRateResponse) })
  .meta({ id: 'ExchangeRateList', example: EXCHANGE_RATE_LIST_EXAMPLE });
