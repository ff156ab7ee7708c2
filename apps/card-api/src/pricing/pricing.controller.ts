import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { z } from 'zod';
import { ApiAuth, CurrentPrincipal, Principal, PROBLEM_CONTENT } from '@fincore/platform';
import {
  CatalogCode,
  ExchangeRateBody,
  ExchangeRateList,
  ExchangeRateResponse,
  LabelBody,
  LabelList,
  LabelResponse,
  PriceListBody,
  PriceListId,
  PriceListListResponse,
  PriceListQuery,
  PriceListResponse,
  TransactionTypeBody,
  TransactionTypeList,
  TransactionTypeResponse,
} from './pricing.schemas';
import { PricingService } from './pricing.service';

const example = (schema: { meta(): Record<string, unknown> | undefined }) => schema.meta()?.example;

/** The tenant's transaction types: what can be quoted. */
@ApiTags('Pricing catalogs')
@Controller('api/v1/transaction-types')
export class TransactionTypesController {
  constructor(private readonly pricing: PricingService) {}

  @Get()
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'List transaction types' })
  @ApiOkResponse({ standardSchema: TransactionTypeList, example: example(TransactionTypeList) })
  list(@CurrentPrincipal() principal: Principal) {
    return this.pricing.listTransactionTypes(principal);
  }

  @Put(':code')
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Create or update a transaction type',
    description: 'Idempotent; codes are upper-case, e.g. ATM_WITHDRAWAL.',
  })
  @ApiOkResponse({ standardSchema: TransactionTypeResponse, example: example(TransactionTypeResponse) })
  put(
    @Param('code', { schema: CatalogCode }) code: string,
    @Body({ schema: TransactionTypeBody }) body: z.infer<typeof TransactionTypeBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.pricing.putTransactionType(principal, code, body);
  }
}

/** The tenant's labels: what associates transactions with fee rules. */
@ApiTags('Pricing catalogs')
@Controller('api/v1/transaction-labels')
export class LabelsController {
  constructor(private readonly pricing: PricingService) {}

  @Get()
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'List labels' })
  @ApiOkResponse({ standardSchema: LabelList, example: example(LabelList) })
  list(@CurrentPrincipal() principal: Principal) {
    return this.pricing.listLabels(principal);
  }

  @Put(':code')
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Create or update a label',
    description: 'Idempotent; codes are upper-case, e.g. INTERNATIONAL.',
  })
  @ApiOkResponse({ standardSchema: LabelResponse, example: example(LabelResponse) })
  put(
    @Param('code', { schema: CatalogCode }) code: string,
    @Body({ schema: LabelBody }) body: z.infer<typeof LabelBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.pricing.putLabel(principal, code, body);
  }
}

@ApiTags('Exchange rates')
@Controller('api/v1/exchange-rates')
export class ExchangeRatesController {
  constructor(private readonly pricing: PricingService) {}

  @Get()
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'List exchange rates' })
  @ApiOkResponse({ standardSchema: ExchangeRateList, example: example(ExchangeRateList) })
  list(@CurrentPrincipal() principal: Principal) {
    return this.pricing.listExchangeRates(principal);
  }

  @Put()
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Set an exchange rate',
    description:
      'The rate of the pair holds from validFrom until the next rate of the pair; setting the same date again replaces it.',
  })
  @ApiOkResponse({ standardSchema: ExchangeRateResponse, example: example(ExchangeRateResponse) })
  put(
    @Body({ schema: ExchangeRateBody }) body: z.infer<typeof ExchangeRateBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.pricing.putExchangeRate(principal, body);
  }
}

@ApiTags('Price lists')
@Controller('api/v1/price-lists')
export class PriceListsController {
  constructor(private readonly pricing: PricingService) {}

  @Get()
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'List price lists', description: 'Filter by level, accountId or cardId.' })
  @ApiOkResponse({ standardSchema: PriceListListResponse, example: example(PriceListListResponse) })
  list(
    @Query({ schema: PriceListQuery }) query: z.infer<typeof PriceListQuery>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.pricing.listPriceLists(principal, query);
  }

  @Get(':priceListId')
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'Show a price list' })
  @ApiOkResponse({ standardSchema: PriceListResponse, example: example(PriceListResponse) })
  @ApiNotFoundResponse({ description: 'price_list_not_found', content: PROBLEM_CONTENT })
  get(@Param('priceListId', { schema: PriceListId }) id: string, @CurrentPrincipal() principal: Principal) {
    return this.pricing.getPriceList(principal, id);
  }

  @Post()
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Create a price list',
    description:
      'Level TENANT (default), ACCOUNT (accountId) or CARD (cardId); validity periods of one owner at one level must not overlap. ' +
      'Rules may only name catalog transaction types and labels.',
  })
  @ApiCreatedResponse({ standardSchema: PriceListResponse, example: example(PriceListResponse) })
  @ApiNotFoundResponse({ description: 'account_not_found, card_not_found', content: PROBLEM_CONTENT })
  @ApiConflictResponse({ description: 'price_list_code_taken, price_list_overlap', content: PROBLEM_CONTENT })
  @ApiUnprocessableEntityResponse({ description: 'unknown_catalog_entries', content: PROBLEM_CONTENT })
  create(
    @Body({ schema: PriceListBody }) body: z.infer<typeof PriceListBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.pricing.createPriceList(principal, body);
  }

  @Put(':priceListId')
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Replace a price list',
    description: 'Replaces validity and rules as a whole; version increases.',
  })
  @ApiOkResponse({ standardSchema: PriceListResponse, example: example(PriceListResponse) })
  @ApiNotFoundResponse({
    description: 'price_list_not_found, account_not_found, card_not_found',
    content: PROBLEM_CONTENT,
  })
  @ApiConflictResponse({ description: 'price_list_code_taken, price_list_overlap', content: PROBLEM_CONTENT })
  @ApiUnprocessableEntityResponse({ description: 'unknown_catalog_entries', content: PROBLEM_CONTENT })
  replace(
    @Param('priceListId', { schema: PriceListId }) id: string,
    @Body({ schema: PriceListBody }) body: z.infer<typeof PriceListBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.pricing.replacePriceList(principal, id, body);
  }

  @Delete(':priceListId')
  @HttpCode(204)
  @ApiAuth('pricing:write')
  @ApiOperation({ summary: 'Delete a price list' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'price_list_not_found', content: PROBLEM_CONTENT })
  delete(
    @Param('priceListId', { schema: PriceListId }) id: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.pricing.deletePriceList(principal, id);
  }
}
