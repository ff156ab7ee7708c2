import { Body, Controller, Get, Param, Post, Put } from '@nestjs/common';
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
import { UsageGroupCode } from '../../identifiers.schemas';
import {
  CreateUsageGroupBody,
  UpdateUsageGroupBody,
  UsageGroupListResponse,
  UsageGroupResponse,
} from './usage-group.schemas';
import { UsageGroupsService } from './usage-groups.service';

@ApiTags('Usage groups')
@Controller('api/v1/usage-groups')
export class UsageGroupsController {
  constructor(private readonly usageGroups: UsageGroupsService) {}

  @Post()
  @ApiAuth('cards:write')
  @ApiOperation({
    summary: 'Create a usage group',
    description: 'A usage group lists the service codes its cards may use.',
  })
  @ApiCreatedResponse({ standardSchema: UsageGroupResponse, example: UsageGroupResponse.meta()?.example })
  @ApiConflictResponse({ description: 'usage_group_exists', content: PROBLEM_CONTENT })
  create(
    @Body({ schema: CreateUsageGroupBody }) body: z.infer<typeof CreateUsageGroupBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.usageGroups.createUsageGroup(principal, body);
  }

  @Get()
  @ApiAuth('cards:read')
  @ApiOperation({ summary: "List the tenant's usage groups" })
  @ApiOkResponse({
    standardSchema: UsageGroupListResponse,
    example: { items: [UsageGroupResponse.meta()?.example] },
  })
  list(@CurrentPrincipal() principal: Principal) {
    return this.usageGroups.listUsageGroups(principal);
  }

  @Get(':code')
  @ApiAuth('cards:read')
  @ApiOperation({ summary: 'Show a usage group' })
  @ApiOkResponse({ standardSchema: UsageGroupResponse, example: UsageGroupResponse.meta()?.example })
  @ApiNotFoundResponse({ description: 'usage_group_not_found', content: PROBLEM_CONTENT })
  get(@Param('code', { schema: UsageGroupCode }) code: string, @CurrentPrincipal() principal: Principal) {
    return this.usageGroups.getUsageGroup(principal, code);
  }

  @Put(':code')
  @ApiAuth('cards:write')
  @ApiOperation({
    summary: 'Change a usage group',
    description:
      'Takes effect at once for its cards. A code added to the group is not allowed on a card until a settings change of that card says so; a removed code stops applying.',
  })
  @ApiOkResponse({ standardSchema: UsageGroupResponse, example: UsageGroupResponse.meta()?.example })
  @ApiNotFoundResponse({ description: 'usage_group_not_found', content: PROBLEM_CONTENT })
  update(
    @Param('code', { schema: UsageGroupCode }) code: string,
    @Body({ schema: UpdateUsageGroupBody }) body: z.infer<typeof UpdateUsageGroupBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.usageGroups.updateUsageGroup(principal, code, body);
  }
}
