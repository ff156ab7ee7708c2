import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { z } from 'zod';
import { ApiAuth, CurrentPrincipal, Principal, PROBLEM_CONTENT } from '@fincore/platform';
import { AccountId } from '../../identifiers.schemas';
import { AccountResponse, CreateAccountBody } from './account.schemas';
import { AccountsService } from './accounts.service';

/** Card accounts. Writes need cards:write: accounts are provisioned together with the cards on them. */
@ApiTags('Accounts')
@Controller('api/v1/accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post()
  @ApiAuth('cards:write')
  @ApiOperation({
    summary: 'Open a card account',
    description: 'accountId is unique per tenant (409 when taken).',
  })
  @ApiCreatedResponse({ standardSchema: AccountResponse, example: AccountResponse.meta()?.example })
  @ApiConflictResponse({ description: 'account_exists', content: PROBLEM_CONTENT })
  create(
    @Body({ schema: CreateAccountBody }) body: z.infer<typeof CreateAccountBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.accounts.createAccount(principal, body);
  }

  @Get(':accountId')
  @ApiAuth('cards:read')
  @ApiOperation({ summary: 'Show a card account' })
  @ApiOkResponse({ standardSchema: AccountResponse, example: AccountResponse.meta()?.example })
  @ApiNotFoundResponse({
    description: 'account_not_found (also for another tenant’s account)',
    content: PROBLEM_CONTENT,
  })
  get(
    @Param('accountId', { schema: AccountId }) accountId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.accounts.getAccount(principal, accountId);
  }
}
