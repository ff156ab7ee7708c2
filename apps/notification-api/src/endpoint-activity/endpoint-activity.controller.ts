import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiAuth, CurrentPrincipal, Principal, PROBLEM_CONTENT } from '@fincore/platform';
import { EntityId } from '../common/common.schemas';
import { WebhookDeliveryResponse } from '../webhook-deliveries/webhook-delivery.schemas';
import { EndpointDeliveryStats, EndpointHealthList, StatsQuery } from './endpoint-activity.schemas';
import { EndpointActivityService } from './endpoint-activity.service';

@ApiTags('Webhook endpoints')
@Controller('api/v1/webhook-endpoints')
export class EndpointActivityController {
  constructor(private readonly service: EndpointActivityService) {}

  @Get('health')
  @ApiAuth('notifications:read')
  @ApiOperation({
    summary: "Every endpoint's last 24 hours: deliveries by outcome and the p95 attempt duration",
    description:
      'The figures the statistics give one endpoint at a time (same window, same outcomes), for all of the ' +
      "tenant's endpoints at once, computed by PostgreSQL in one statement. The p95 is over the attempts of " +
      'those deliveries. An endpoint without deliveries is listed with zeros and a null p95.',
  })
  @ApiOkResponse({ standardSchema: EndpointHealthList })
  health(@CurrentPrincipal() principal: Principal) {
    return this.service.health(principal);
  }

  @Get(':endpointId/stats')
  @ApiAuth('notifications:read')
  @ApiOperation({
    summary: "The endpoint's deliveries per hour by outcome, over the last 24 hours or 7 days",
    description:
      'Counted by PostgreSQL in one grouped query: each delivery in the UTC hour it was created, by the status it has now (SUCCEEDED, FAILED, PENDING). Hours without deliveries are listed with zeros.',
  })
  @ApiOkResponse({ standardSchema: EndpointDeliveryStats })
  @ApiNotFoundResponse({ description: 'webhook_endpoint_not_found', content: PROBLEM_CONTENT })
  stats(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @Query({ schema: StatsQuery }) query: StatsQuery,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.stats(principal, endpointId, query.window);
  }

  @Post(':endpointId/test')
  @ApiAuth('notifications:write')
  @ApiOperation({
    summary: 'Send a WEBHOOK_TEST event to this endpoint only',
    description:
      'Signed, sent and recorded like any delivery (same retries, visible among the deliveries); no other endpoint receives it, whatever it subscribes to. Its data: `{ "endpointId": "<this endpoint>", "message": "A test event from fincore: your endpoint receives and verifies webhooks." }`, schema WebhookTestData.',
  })
  @ApiCreatedResponse({ standardSchema: WebhookDeliveryResponse })
  @ApiNotFoundResponse({ description: 'webhook_endpoint_not_found', content: PROBLEM_CONTENT })
  @ApiConflictResponse({
    description: 'webhook_endpoint_disabled: the endpoint is disabled',
    content: PROBLEM_CONTENT,
  })
  sendTest(
    @Param('endpointId', { schema: EntityId }) endpointId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.sendTest(principal, endpointId);
  }
}
