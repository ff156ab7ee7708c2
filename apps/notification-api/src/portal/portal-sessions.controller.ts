import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiAuth, CurrentPrincipal, endedSessionCookie, Principal, PROBLEM_CONTENT } from '@fincore/platform';
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

  @Delete('current')
  @HttpCode(204)
  @ApiAuth('notifications:read')
  @ApiOperation({
    summary: 'Sign out: ends the portal session whose cookie carries the request, and drops the cookie',
    description:
      'The session is ended on the server, so its cookie opens nothing any more, wherever it was copied to. Like every change made with the cookie, it needs the x-fincore-portal header. Read-only sessions may sign out too.',
  })
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiBadRequestResponse({
    description: 'portal_session_required: called with an API token, which has no session to end',
    content: PROBLEM_CONTENT,
  })
  async end(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.service.end(principal);
    reply.header('set-cookie', endedSessionCookie(request.protocol === 'https'));
  }
}
