import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
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
} from '@fincore/platform';
import { CardSettingsService } from './card-settings.service';
import {
  AuthorisationCheckBody,
  AuthorisationCheckResponse,
  CardId,
  CardResponse,
  CardSettingsResponse,
  CardSettingsView,
  ChangeCardSettingsBody,
  ChangeCardStatusBody,
  CreateCardBody,
  HistoryQuery,
  SettingsHistoryResponse,
} from './cards.schemas';
import { CardsService } from './cards.service';

@ApiTags('Cards')
@Controller('api/v1/cards')
export class CardsController {
  constructor(
    private readonly cards: CardsService,
    private readonly settings: CardSettingsService,
  ) {}

  @Post()
  @ApiAuth('cards:write')
  @ApiOperation({
    summary: 'Provision a card',
    description:
      'The account and usage group must exist (422 unknown_account / unknown_usage_group). Initial settings are optional and follow the same rules as a settings change.',
  })
  @ApiCreatedResponse({ standardSchema: CardResponse, example: CardResponse.meta()?.example })
  @ApiConflictResponse({ description: 'card_exists', content: PROBLEM_CONTENT })
  @ApiUnprocessableEntityResponse({
    description: 'unknown_account, account_closed, unknown_usage_group, service-code rules',
    content: PROBLEM_CONTENT,
  })
  create(
    @Body({ schema: CreateCardBody }) body: z.infer<typeof CreateCardBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.cards.createCard(principal, body);
  }

  @Get(':cardId')
  @ApiAuth('cards:read')
  @ApiOperation({ summary: 'Show a card with its settings in force' })
  @ApiOkResponse({ standardSchema: CardResponse, example: CardResponse.meta()?.example })
  @ApiNotFoundResponse({
    description: 'card_not_found (also for another tenant’s card)',
    content: PROBLEM_CONTENT,
  })
  get(@Param('cardId', { schema: CardId }) cardId: string, @CurrentPrincipal() principal: Principal) {
    return this.cards.getCard(principal, cardId);
  }

  @Post(':cardId/status/change')
  @HttpCode(200)
  @ApiAuth('cards:write')
  @ApiOperation({
    summary: 'Block, unblock or close a card',
    description: 'CLOSED is final: a closed card answers 409 card_closed.',
  })
  @ApiOkResponse({
    standardSchema: CardResponse,
    example: { ...(CardResponse.meta()?.example as object), status: 'BLOCKED' },
  })
  @ApiNotFoundResponse({ description: 'card_not_found', content: PROBLEM_CONTENT })
  @ApiConflictResponse({ description: 'card_closed', content: PROBLEM_CONTENT })
  changeStatus(
    @Param('cardId', { schema: CardId }) cardId: string,
    @Body({ schema: ChangeCardStatusBody }) body: z.infer<typeof ChangeCardStatusBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.cards.changeStatus(principal, cardId, body);
  }

  @Get(':cardId/settings')
  @ApiAuth('cards:read')
  @ApiOperation({ summary: 'The settings of a card now in force' })
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
  @ApiOperation({ summary: 'Every effective settings change of a card, newest first' })
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
    return this.settings.history(principal, cardId, query);
  }

  @Post(':cardId/authorisations/check')
  @HttpCode(200)
  @ApiAuth('cards:read')
  @ApiOperation({
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
