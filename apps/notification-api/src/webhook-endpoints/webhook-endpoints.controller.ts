import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
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
import { ApiAuth, CurrentPrincipal, Principal, PROBLEM_CONTENT } from '@fincore/platform';
import { EntityId } from '../common/common.schemas';
import {
  CreateWebhookEndpointRequest,
  PublicKeyResponse,
  ReplayRequest,
  ReplayResponse,
  RotateSecretResponse,
  UpdateWebhookEndpointRequest,
  WebhookEndpointList,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './webhook-endpoint.schemas';
import { WebhookEndpointsService } from './webhook-endpoints.service';

const notFound = { description: "Unknown endpoint (or another tenant's)", content: PROBLEM_CONTENT };

@ApiTags('Webhook endpoints')
@Controller('api/v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly service: WebhookEndpointsService) {}

  @Post()
  @ApiAuth('notifications:write')
  @ApiOperation({
    summary: 'Register a webhook receiver',
    description: 'Answers with the signing secret, shown only here.',
  })
  @ApiCreatedResponse({ standardSchema: WebhookEndpointWithSecretResponse })
  @ApiUnprocessableEntityResponse({
    description: 'URL refused (scheme, private or metadata address), or endpoint limit reached',
    content: PROBLEM_CONTENT,
  })
  create(
    @Body({ schema: CreateWebhookEndpointRequest }) body: CreateWebhookEndpointRequest,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.create(principal, body);
  }

  @Get()
  @ApiAuth('notifications:read')
  @ApiOperation({ summary: "The tenant's webhook endpoints" })
  @ApiOkResponse({ standardSchema: WebhookEndpointList })
  list(@CurrentPrincipal() principal: Principal) {
    return this.service.list(principal);
  }

  @Get(':endpointId')
  @ApiAuth('notifications:read')
  @ApiOperation({ summary: 'One webhook endpoint, with its health (failingSince, disabledReason)' })
  @ApiOkResponse({ standardSchema: WebhookEndpointResponse })
  @ApiNotFoundResponse(notFound)
  get(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.get(principal, endpointId);
  }

  @Patch(':endpointId')
  @ApiAuth('notifications:write')
  @ApiOperation({
    summary: 'Change how an endpoint receives events: ordering, payload, rate limit, signature schemes',
    description:
      'Deliveries already created keep the ordering they were created with; the payload applies to every ' +
      'attempt from now on. Turning v1a on gives an ' +
      'endpoint without a key pair its ed25519 key pair.',
  })
  @ApiOkResponse({ standardSchema: WebhookEndpointResponse })
  @ApiNotFoundResponse(notFound)
  update(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @Body({ schema: UpdateWebhookEndpointRequest }) body: UpdateWebhookEndpointRequest,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.update(principal, endpointId, body);
  }

  @Get(':endpointId/public-key')
  @ApiAuth('notifications:read')
  @ApiOperation({
    summary: 'The ed25519 public key that verifies v1a signatures',
    description:
      'whpk_ followed by the base64 of the 32 raw key bytes (Standard Webhooks). During a rotation the ' +
      'previous key is listed too, as deliveries then carry a v1a signature with each.',
  })
  @ApiOkResponse({ standardSchema: PublicKeyResponse })
  @ApiNotFoundResponse(notFound)
  publicKey(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.publicKey(principal, endpointId);
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @ApiAuth('notifications:write')
  @ApiOperation({
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries end as failed; its history stays readable.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse(notFound)
  async delete(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.service.delete(principal, endpointId);
  }

  @Post(':endpointId/disable')
  @HttpCode(200)
  @ApiAuth('notifications:write')
  @ApiOperation({ summary: 'Disable a webhook endpoint (idempotent); its pending deliveries end as failed' })
  @ApiOkResponse({ standardSchema: WebhookEndpointResponse })
  @ApiNotFoundResponse(notFound)
  disable(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.disable(principal, endpointId);
  }

  @Post(':endpointId/enable')
  @HttpCode(200)
  @ApiAuth('notifications:write')
  @ApiOperation({ summary: 'Enable a webhook endpoint again (idempotent)' })
  @ApiOkResponse({ standardSchema: WebhookEndpointResponse })
  @ApiNotFoundResponse(notFound)
  enable(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.enable(principal, endpointId);
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  @ApiAuth('notifications:write')
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description:
      'During the grace period every delivery carries two signatures (new and old secret), as Standard Webhooks allows.',
  })
  @ApiOkResponse({ standardSchema: RotateSecretResponse })
  @ApiNotFoundResponse(notFound)
  rotateSecret(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.rotateSecret(principal, endpointId);
  }

  @Post(':endpointId/replay')
  @HttpCode(200)
  @ApiAuth('notifications:write')
  @ApiOperation({ summary: 'Replay the failed deliveries of the endpoint created in a time range' })
  @ApiOkResponse({ standardSchema: ReplayResponse })
  @ApiNotFoundResponse(notFound)
  @ApiConflictResponse({ description: 'The endpoint is disabled', content: PROBLEM_CONTENT })
  replay(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @Body({ schema: ReplayRequest }) body: ReplayRequest,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.replay(principal, endpointId, body);
  }
}
