import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { z } from 'zod';
import { ApiAuth, CurrentPrincipal, Principal, PROBLEM_CONTENT } from '@fincore/platform';
import { CardId } from '../../identifiers.schemas';
import { BLOCKED_CARD_EXAMPLE } from './card.examples';
import { CardResponse, ChangeCardStatusBody, CreateCardBody } from './card.schemas';
import { CardsService } from './cards.service';

@ApiTags('Cards')
@Controller('api/v1/cards')
export class CardsController {
  constructor(private readonly cards: CardsService) {}

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
    example: BLOCKED_CARD_EXAMPLE,
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
}
