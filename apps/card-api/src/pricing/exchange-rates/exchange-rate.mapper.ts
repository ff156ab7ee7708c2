import type { z } from 'zod';
import type { ExchangeRateEntity } from './exchange-rate.entity';
import type { ExchangeRateResponse } from './exchange-rate.schemas';

/** numeric comes back padded to its scale ("0.9200000000"); answer it as the pricing team wrote it. */
export function mapExchangeRate(
  e: Pick<ExchangeRateEntity, 'baseCurrency' | 'quoteCurrency' | 'validFrom' | 'rate'>,
): z.infer<typeof ExchangeRateResponse> {
  return {
    baseCurrency: e.baseCurrency,
    quoteCurrency: e.quoteCurrency,
    validFrom: e.validFrom,
    rate: trimZeros(e.rate),
  };
}

function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}
