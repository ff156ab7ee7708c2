import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, CurrentPrincipal, Principal } from '@fincore/platform';
import { PortalCaller, PortalSessionRequest, PortalSessionResponse } from './portal-session.schemas';
import { PortalSessionsService } from './portal-sessions.service';

@ApiTags('Subscriber portal')
@Controller('api/v1/portal-sessions')
export class PortalSessionsController {
  constructor(private readonly service: PortalSessionsService) {}

  @Post()
  @ApiAuth('portal:create')
  @ApiOperation({
    summary: 'A one-time link that opens the subscriber portal for this tenant',
    description:
      'The link is valid for 10 minutes and opens once: it starts a 12-hour browser session for the tenant (read-only if asked), in which the portal shows and manages webhook endpoints, deliveries and notification configuration. Hand it to the subscriber; do not log it.',
  })
  @ApiCreatedResponse({ standardSchema: PortalSessionResponse })
  create(
    @Body({ schema: PortalSessionRequest }) body: PortalSessionRequest,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.create(principal, body);
  }

  @Get('current')
  @ApiAuth('notifications:read')
  @ApiOperation({
    summary: 'The caller as the portal sees it: tenant, and whether it may change anything',
  })
  @ApiOkResponse({ standardSchema: PortalCaller })
  current(@CurrentPrincipal() principal: Principal) {
    return this.service.caller(principal);
  }
}
