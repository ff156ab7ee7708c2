import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
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
  RequireTenantHeader,
  WithoutIdempotencyKey,
} from '@fincore/platform';
import { CardId } from '../../identifiers.schemas';
import { CardSettingsResponse, ChangeCardSettingsBody } from '../card/card.schemas';
import {
  AuthorisationCheckBody,
  AuthorisationCheckResponse,
  CardSettingsView,
  HistoryQuery,
  SettingsHistoryResponse,
} from './card-settings.schemas';
import { CardSettingsService } from './card-settings.service';

/**
 * A card's settings, their history and the authorisation check, under the card's path. Operation
 * ids are given so that they stay those of the other card operations (CardsController_…), which
 * clients generate their method names from.
 */
@ApiTags('Cards')
@Controller('api/v1/cards')
export class CardSettingsController {
  constructor(private readonly settings: CardSettingsService) {}

  @Get(':cardId/settings')
  @ApiAuth('cards:read')
  @ApiOperation({
    operationId: 'CardsController_getSettings',
    summary: 'The settings of a card now in force',
  })
  @ApiOkResponse({ standardSchema: CardSettingsView, example: CardSettingsView.meta()?.example })
  @ApiNotFoundResponse({ description: 'card_not_found', content: PROBLEM_CONTENT })
  getSettings(@Param('cardId', { schema: CardId }) cardId: string, @CurrentPrincipal() principal: Principal) {
    return this.settings.getSettings(principal, cardId);
  }

  @Post(':cardId/settings/change')
  @HttpCode(200)
  @ApiAuth('cards:write')
  @RequireTenantHeader()
  @ApiOperation({
    operationId: 'CardsController_changeSettings',
    summary: 'Change card settings',
    description:
      "Replaces the card's settings: every service code its usage group allows must be listed with allowed true or false; renewable and xpaysAllowed are required. " +
      'All or nothing; concurrent changes of one card are applied one after the other. Takes effect immediately (see authorisations/check). ' +
      'Emits CARD_SETTINGS_CHANGED and records a history entry when something changed.',
  })
  @ApiOkResponse({
    description: 'The settings now in force',
    standardSchema: CardSettingsResponse,
    example: CardSettingsResponse.meta()?.example,
  })
  @ApiBadRequestResponse({
    description: 'validation_failed, unknown_service_code, duplicate_service_code',
    content: PROBLEM_CONTENT,
  })
  @ApiNotFoundResponse({
    description: 'card_not_found (also for another tenant’s card)',
    content: PROBLEM_CONTENT,
  })
  @ApiConflictResponse({ description: 'card_closed', content: PROBLEM_CONTENT })
  @ApiUnprocessableEntityResponse({
    description:
      'service_code_not_supported_by_network, service_code_not_in_usage_group, service_codes_missing',
    content: PROBLEM_CONTENT,
  })
  changeSettings(
    @Param('cardId', { schema: CardId }) cardId: string,
    @Body({ schema: ChangeCardSettingsBody }) body: z.infer<typeof ChangeCardSettingsBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.settings.changeSettings(principal, cardId, body);
  }

  @Get(':cardId/settings/history')
  @ApiAuth('cards:read')
  @ApiOperation({
    operationId: 'CardsController_history',
    summary: 'Every effective settings change of a card, newest first',
  })
  @ApiOkResponse({
    standardSchema: SettingsHistoryResponse,
    example: SettingsHistoryResponse.meta()?.example,
  })
  @ApiNotFoundResponse({ description: 'card_not_found', content: PROBLEM_CONTENT })
  history(
    @Param('cardId', { schema: CardId }) cardId: string,
    @Query({ schema: HistoryQuery }) query: z.infer<typeof HistoryQuery>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.settings.listHistory(principal, cardId, query);
  }

  @Post(':cardId/authorisations/check')
  @WithoutIdempotencyKey()
  @HttpCode(200)
  @ApiAuth('cards:read')
  @ApiOperation({
    operationId: 'CardsController_check',
    summary: 'Would an authorisation with this service code be allowed now?',
    description:
      'Answers from the committed settings in PostgreSQL (no cache), so it sees every change whose response was sent, on any replica.',
  })
  @ApiOkResponse({
    standardSchema: AuthorisationCheckResponse,
    example: AuthorisationCheckResponse.meta()?.example,
  })
  @ApiBadRequestResponse({ description: 'unknown_service_code', content: PROBLEM_CONTENT })
  @ApiNotFoundResponse({ description: 'card_not_found', content: PROBLEM_CONTENT })
  check(
    @Param('cardId', { schema: CardId }) cardId: string,
    @Body({ schema: AuthorisationCheckBody }) body: z.infer<typeof AuthorisationCheckBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.settings.checkAuthorisation(principal, cardId, body.serviceCode);
  }
}
