import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { ApiAuth, CurrentPrincipal, Principal } from '@fincore/platform';
import { CatalogCode } from '../common.schemas';
import { LABEL_EXAMPLE, LABEL_LIST_EXAMPLE } from './catalog.examples';
import { LabelBody, LabelList, LabelResponse } from './catalog.schemas';
import { CatalogsService } from './catalogs.service';

/** The tenant's labels: what associates transactions with fee rules. */
@ApiTags('Pricing catalogs')
@Controller('api/v1/transaction-labels')
export class LabelsController {
  constructor(private readonly catalog: CatalogsService) {}

  @Get()
  @ApiAuth('pricing:read')
  @ApiOperation({ summary: 'List labels' })
  @ApiOkResponse({ standardSchema: LabelList, example: LABEL_LIST_EXAMPLE })
  list(@CurrentPrincipal() principal: Principal) {
    return this.catalog.listLabels(principal);
  }

  @Put(':code')
  @ApiAuth('pricing:write')
  @ApiOperation({
    summary: 'Create or update a label',
    description: 'Idempotent; codes are upper-case, e.g. INTERNATIONAL.',
  })
  @ApiOkResponse({ standardSchema: LabelResponse, example: LABEL_EXAMPLE })
  put(
    @Param('code', { schema: CatalogCode }) code: string,
    @Body({ schema: LabelBody }) body: z.infer<typeof LabelBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.catalog.putLabel(principal, code, body);
  }
}
