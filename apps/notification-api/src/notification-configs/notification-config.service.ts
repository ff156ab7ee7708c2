import { Injectable } from '@nestjs/common';
import { EVENT_TYPES } from '@fincore/events';
import {
  ChannelCode,
  IMPLEMENTED_CHANNELS,
  isImplementedChannel,
  NotificationConfigRepository,
} from '@fincore/notifications';
import { Principal } from '@fincore/platform';
import { channelNotImplemented } from '../common/notification.problems';
import { mapNotificationConfig, mapNotificationType } from './notification-config.mapper';
import type { NotificationConfigRequest } from './notification-config.schemas';

/** Which notification types a tenant receives through which channel. Changing it emits no event. */
@Injectable()
export class NotificationConfigService {
  constructor(private readonly configs: NotificationConfigRepository) {}

  /** Idempotent: enabling what is enabled keeps its original enabledAt, so no event is skipped or doubled. */
  async enable(principal: Principal, request: NotificationConfigRequest) {
    assertImplemented(request.channelCode);
    const config = await this.configs.upsertEnabled({ tenantId: principal.tenantId, ...request }, new Date());
    return mapNotificationConfig(config);
  }

  /** Idempotent; events that occur while disabled never produce a notification, even after re-enabling. */
  async disable(principal: Principal, request: NotificationConfigRequest) {
    assertImplemented(request.channelCode);
    const config = await this.configs.upsertDisabled(
      { tenantId: principal.tenantId, ...request },
      new Date(),
    );
    return mapNotificationConfig(config);
  }

  async list(principal: Principal) {
    const configs = await this.configs.listOfTenant(principal.tenantId);
    return { items: configs.map(mapNotificationConfig) };
  }

  types() {
    return { items: EVENT_TYPES.map(mapNotificationType) };
  }
}

function assertImplemented(channelCode: ChannelCode): void {
  if (isImplementedChannel(channelCode)) return;
  throw channelNotImplemented(channelCode, IMPLEMENTED_CHANNELS);
}
