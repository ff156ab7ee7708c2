import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiAuth, CurrentPrincipal, Principal, PROBLEM_CONTENT } from '@fincore/platform';
import { EntityId } from '../common/common.schemas';
import {
  DeliveryListQuery,
  WebhookDeliveryDetailResponse,
  WebhookDeliveryList,
  WebhookDeliveryResponse,
} from './webhook-delivery.schemas';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

@ApiTags('Webhook deliveries')
@Controller('api/v1/webhook-deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly service: WebhookDeliveriesService) {}

  @Get()
  @ApiAuth('notifications:read')
  @ApiOperation({
    summary: 'Deliveries, newest first; filter by status, endpoint and type; cursor pagination',
  })
  @ApiOkResponse({ standardSchema: WebhookDeliveryList })
  list(
    @Query({ schema: DeliveryListQuery }) query: DeliveryListQuery,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.list(principal, query);
  }

  @Get(':deliveryId')
  @ApiAuth('notifications:read')
  @ApiOperation({
    summary: 'One delivery with every attempt (time, status code, duration, error, response excerpt)',
  })
  @ApiOkResponse({ standardSchema: WebhookDeliveryDetailResponse })
  @ApiNotFoundResponse({ description: 'Unknown delivery', content: PROBLEM_CONTENT })
  get(
    @Param('deliveryId', { schema: EntityId }) deliveryId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.get(principal, deliveryId);
  }

  @Post(':deliveryId/retry')
  @HttpCode(200)
  @ApiAuth('notifications:write')
  @ApiOperation({
    summary:
      'Send a delivery again now, same webhook-id, fresh retry schedule: a failed or succeeded one, or one waiting for a later attempt',
  })
  @ApiOkResponse({ standardSchema: WebhookDeliveryResponse })
  @ApiNotFoundResponse({ description: 'Unknown delivery', content: PROBLEM_CONTENT })
  @ApiConflictResponse({
    description:
      'webhook_delivery_in_progress: due now or never attempted, so possibly under way; webhook_endpoint_disabled: its endpoint is disabled',
    content: PROBLEM_CONTENT,
  })
  retry(
    @Param('deliveryId', { schema: EntityId }) deliveryId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.retry(principal, deliveryId);
  }
}
