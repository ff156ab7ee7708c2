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
import { PRICE_LIST_EXAMPLE, PRICE_LIST_LIST_EXAMPLE } from './price-list.examples';
import {
  PriceListBody,
  PriceListId,
  PriceListListResponse,
  PriceListQuery,
  PriceListResponse,
} from './price-list.schemas';
import { PriceListsService } from './price-lists.service';

@ApiTags('Price lists')
@Controller('api/v1/price-lists')
export class PriceListsController {
  constructor(private readonly priceLists: PriceListsService) {}

  @Get()
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'List price lists', description: 'Filter by level, accountId or cardId.' })
  @ApiOkResponse({ standardSchema: PriceListListResponse, example: PRICE_LIST_LIST_EXAMPLE })
  list(
    @Query({ schema: PriceListQuery }) query: z.infer<typeof PriceListQuery>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.priceLists.list(principal, query);
  }

  @Get(':priceListId')
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'Show a price list' })
  @ApiOkResponse({ standardSchema: PriceListResponse, example: PRICE_LIST_EXAMPLE })
  @ApiNotFoundResponse({ description: 'price_list_not_found', content: PROBLEM_CONTENT })
  get(@Param('priceListId', { schema: PriceListId }) id: string, @CurrentPrincipal() principal: Principal) {
    return this.priceLists.get(principal, id);
  }

  @Post()
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Create a price list',
    description:
      'Level TENANT (default), ACCOUNT (accountId) or CARD (cardId); validity periods of one owner at one level must not overlap. ' +
      'Rules may only name catalog transaction types and labels.',
  })
  @ApiCreatedResponse({ standardSchema: PriceListResponse, example: PRICE_LIST_EXAMPLE })
  @ApiNotFoundResponse({ description: 'account_not_found, card_not_found', content: PROBLEM_CONTENT })
  @ApiConflictResponse({ description: 'price_list_code_taken, price_list_overlap', content: PROBLEM_CONTENT })
  @ApiUnprocessableEntityResponse({ description: 'unknown_catalog_entries', content: PROBLEM_CONTENT })
  create(
    @Body({ schema: PriceListBody }) body: z.infer<typeof PriceListBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.priceLists.create(principal, body);
  }

  @Put(':priceListId')
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Replace a price list',
    description: 'Replaces validity and rules as a whole; version increases.',
  })
  @ApiOkResponse({ standardSchema: PriceListResponse, example: PRICE_LIST_EXAMPLE })
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
    return this.priceLists.replace(principal, id, body);
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
    return this.priceLists.delete(principal, id);
  }
}
