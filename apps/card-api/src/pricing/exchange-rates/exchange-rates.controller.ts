import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { ApiAuth, CurrentPrincipal, Principal } from '@fincore/platform';
import { EXCHANGE_RATE_EXAMPLE, EXCHANGE_RATE_LIST_EXAMPLE } from './exchange-rate.examples';
import { ExchangeRateBody, ExchangeRateList, ExchangeRateResponse } from './exchange-rate.schemas';
import { ExchangeRatesService } from './exchange-rates.service';

@ApiTags('Exchange rates')
@Controller('api/v1/exchange-rates')
export class ExchangeRatesController {
  constructor(private readonly rates: ExchangeRatesService) {}

  @Get()
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'List exchange rates' })
  @ApiOkResponse({ standardSchema: ExchangeRateList, example: EXCHANGE_RATE_LIST_EXAMPLE })
  list(@CurrentPrincipal() principal: Principal) {
    return this.rates.list(principal);
  }

  @Put()
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Set an exchange rate',
    description:
      'The rate of the pair holds from validFrom until the next rate of the pair; setting the same date again replaces it.',
  })
  @ApiOkResponse({ standardSchema: ExchangeRateResponse, example: EXCHANGE_RATE_EXAMPLE })
  put(
    @Body({ schema: ExchangeRateBody }) body: z.infer<typeof ExchangeRateBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.rates.put(principal, body);
  }
}
