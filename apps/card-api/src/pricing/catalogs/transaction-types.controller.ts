import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { ApiAuth, CurrentPrincipal, Principal } from '@fincore/platform';
import { CatalogCode } from '../common.schemas';
import { TRANSACTION_TYPE_EXAMPLE, TRANSACTION_TYPE_LIST_EXAMPLE } from './catalog.examples';
import { TransactionTypeBody, TransactionTypeList, TransactionTypeResponse } from './catalog.schemas';
import { CatalogsService } from './catalogs.service';

/** The tenant's transaction types: what can be quoted. */
@ApiTags('Pricing catalogs')
@Controller('api/v1/transaction-types')
export class TransactionTypesController {
  constructor(private readonly catalog: CatalogsService) {}

  @Get()
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'List transaction types' })
  @ApiOkResponse({ standardSchema: TransactionTypeList, example: TRANSACTION_TYPE_LIST_EXAMPLE })
  list(@CurrentPrincipal() principal: Principal) {
    return this.catalog.listTransactionTypes(principal);
  }

  @Put(':code')
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Create or update a transaction type',
    description: 'Idempotent; codes are upper-case, e.g. ATM_WITHDRAWAL.',
  })
  @ApiOkResponse({ standardSchema: TransactionTypeResponse, example: TRANSACTION_TYPE_EXAMPLE })
  put(
    @Param('code', { schema: CatalogCode }) code: string,
    @Body({ schema: TransactionTypeBody }) body: z.infer<typeof TransactionTypeBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.catalog.putTransactionType(principal, code, body);
  }
}
