import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { z } from 'zod';
import {
  ApiAuth,
  CurrentPrincipal,
  Principal,
  PROBLEM_CONTENT,
  WithoutIdempotencyKey,
} from '@fincore/platform';
import { FeeQuotesService } from './fee-quotes.service';
import { FEE_QUOTE_RESPONSE_EXAMPLE } from './fee-quote.examples';
import { CalculateFeesBody, CalculateFeesResponse } from './fee-quote.schemas';

/** Fee quotation: prices a transaction without storing anything. */
@ApiTags('Fees')
@Controller('api/v1/transactions')
export class FeeQuotesController {
  constructor(private readonly quotes: FeeQuotesService) {}

  @Post('calculate-fees')
  @WithoutIdempotencyKey()
  @HttpCode(200)
  @ApiAuth('fees:quote')
  // The published operation id; generated clients name their method after it.
  @ApiOperation({
    operationId: 'FeesController_calculate',
    summary: 'Calculate fees',
    description:
      'Prices a transaction with the price list of the card, else of the account, else the tenant default valid on postingDate. ' +
      'Per fee type the first matching rule applies (transaction type, every label of labelsAll, none of labelsNone). ' +
      'Fees are in the transaction currency, rounded half-up to its ISO 4217 minor unit; rules priced in another currency are converted ' +
      'at the tenant rate valid on postingDate. Accounts of type CURRENT or PREPAID, and accounts carrying a DEBIT, PREPAID or GIFT card, need cardId. Nothing is stored.',
  })
  @ApiOkResponse({ standardSchema: CalculateFeesResponse, example: FEE_QUOTE_RESPONSE_EXAMPLE })
  @ApiNotFoundResponse({
    description: 'account_not_found, card_not_found (also another tenant’s)',
    content: PROBLEM_CONTENT,
  })
  @ApiUnprocessableEntityResponse({
    description:
      'unknown_transaction_type, unknown_labels, zero_amount_not_allowed, card_required, card_not_on_account, no_price_list, exchange_rate_missing',
    content: PROBLEM_CONTENT,
  })
  calculate(
    @Body({ schema: CalculateFeesBody }) body: z.infer<typeof CalculateFeesBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.quotes.calculate(principal, body);
  }
}
