import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiBadRequestResponse,
} from '@nestjs/swagger';
import { ApiAuth, CurrentPrincipal, Principal, PROBLEM_CONTENT } from '@fincore/platform';
import { disabledNotificationConfigExample, notificationConfigExample } from './notification-config.examples';
import { NotificationConfigsService } from './notification-configs.service';
import {
  NotificationConfigList,
  NotificationConfigRequest,
  NotificationConfigResponse,
  NotificationTypeList,
} from './notification-config.schemas';

@ApiTags('Notification configuration')
@Controller('api/v1')
export class NotificationConfigsController {
  constructor(private readonly service: NotificationConfigsService) {}

  @Put('notification-config/enable')
  @HttpCode(200)
  @ApiAuth('notifications:write')
  // The published operation ids; generated clients name their methods after them.
  @ApiOperation({
    operationId: 'NotificationConfigController_enable',
    summary: 'Enable notification generation',
    description:
      "Enables the notification type for the channel, for the caller's tenant. Idempotent. Only events that occur after enabling produce notifications. Emits no event.",
  })
  @ApiOkResponse({ standardSchema: NotificationConfigResponse, example: notificationConfigExample })
  @ApiBadRequestResponse({
    description: 'Unknown notification type or channel (the allowed values are named)',
    content: PROBLEM_CONTENT,
  })
  @ApiUnprocessableEntityResponse({
    description: 'The channel is known but not implemented (only WEBHOOK is)',
    content: PROBLEM_CONTENT,
  })
  enable(
    @Body({ schema: NotificationConfigRequest }) body: NotificationConfigRequest,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.enable(principal, body);
  }

  @Put('notification-config/disable')
  @HttpCode(200)
  @ApiAuth('notifications:write')
  @ApiOperation({
    operationId: 'NotificationConfigController_disable',
    summary: 'Disable notification generation',
    description: 'Idempotent. Deliveries already created still go out.',
  })
  @ApiOkResponse({ standardSchema: NotificationConfigResponse, example: disabledNotificationConfigExample })
  @ApiBadRequestResponse({ description: 'Unknown notification type or channel', content: PROBLEM_CONTENT })
  @ApiUnprocessableEntityResponse({
    description: 'The channel is known but not implemented',
    content: PROBLEM_CONTENT,
  })
  disable(
    @Body({ schema: NotificationConfigRequest }) body: NotificationConfigRequest,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.disable(principal, body);
  }

  @Get('notification-config')
  @ApiAuth('notifications:read')
  @ApiOperation({
    operationId: 'NotificationConfigController_list',
    summary: "The tenant's notification configuration",
  })
  @ApiOkResponse({ standardSchema: NotificationConfigList, example: { items: [notificationConfigExample] } })
  list(@CurrentPrincipal() principal: Principal) {
    return this.service.list(principal);
  }

  @Get('notification-types')
  @ApiAuth('notifications:read')
  @ApiOperation({
    operationId: 'NotificationConfigController_types',
    summary: 'Catalog of notification types, each with the JSON Schema of its data',
  })
  @ApiOkResponse({ standardSchema: NotificationTypeList })
  types() {
    return this.service.types();
  }
}
