import { EVENT_CATALOG, EventType, eventDataJsonSchema } from '@fincore/events';
import { IMPLEMENTED_CHANNELS, NotificationConfigEntity } from '@fincore/notifications';
import type { NotificationConfigResponse, NotificationTypeResponse } from './notification-config.schemas';

/** enabledAt only while enabled: a disabled switch has no "since". */
export function mapNotificationConfig(c: NotificationConfigEntity): NotificationConfigResponse {
  return {
    notificationTypeCode: c.notificationTypeCode,
    channelCode: c.channelCode,
    enabled: c.enabled,
    enabledAt: c.enabled && c.enabledAt ? c.enabledAt.toISOString() : null,
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function mapNotificationType(code: EventType): NotificationTypeResponse {
  return {
    code,
    description: EVENT_CATALOG[code].description,
    channels: [...IMPLEMENTED_CHANNELS],
    dataSchema: eventDataJsonSchema(code),
    thinDataSchema: eventDataJsonSchema(code, 'THIN'),
    example: EVENT_CATALOG[code].example,
  };
}
