import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EVENT_CATALOG, EVENT_TYPES, eventDataJsonSchema } from '@fincore/events';
import { Principal, ProblemException } from '@fincore/platform';
import { ChannelCode as Channel, IMPLEMENTED_CHANNELS, isImplementedChannel } from './domain/channels';
import { NotificationConfigEntity } from './entities/notification-config.entity';
import { toConfigResponse } from './mapper';
import type { NotificationConfigRequest } from './notifications.schemas';

interface ConfigRow {
  tenant_id: string;
  notification_type_code: string;
  channel_code: string;
  enabled: boolean;
  enabled_at: Date | null;
  disabled_at: Date | null;
  updated_at: Date;
}

const toEntity = (row: ConfigRow): NotificationConfigEntity =>
  Object.assign(new NotificationConfigEntity(), {
    tenantId: row.tenant_id,
    notificationTypeCode: row.notification_type_code,
    channelCode: row.channel_code,
    enabled: row.enabled,
    enabledAt: row.enabled_at,
    disabledAt: row.disabled_at,
    updatedAt: row.updated_at,
  });

/** Which notification types a tenant receives through which channel. Changing it emits no event (spec, Events 2). */
@Injectable()
export class NotificationConfigService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Idempotent: enabling what is enabled keeps its original enabledAt, so no event is skipped or doubled. */
  async enable(principal: Principal, request: NotificationConfigRequest) {
    this.assertImplemented(request.channelCode as Channel);
    const now = new Date();
    const [row]: ConfigRow[] = await this.db.query(
      `INSERT INTO notifications.notification_configs AS c
         (tenant_id, notification_type_code, channel_code, enabled, enabled_at, updated_at)
       VALUES ($1, $2, $3, true, $4, $4)
       ON CONFLICT (tenant_id, notification_type_code, channel_code) DO UPDATE
         SET enabled = true,
             enabled_at = CASE WHEN c.enabled THEN c.enabled_at ELSE EXCLUDED.enabled_at END,
             updated_at = CASE WHEN c.enabled THEN c.updated_at ELSE EXCLUDED.updated_at END
       RETURNING *`,
      [principal.tenantId, request.notificationTypeCode, request.channelCode, now],
    );
    return toConfigResponse(toEntity(row));
  }

  /** Idempotent; events that occur while disabled never produce a notification, even after re-enabling. */
  async disable(principal: Principal, request: NotificationConfigRequest) {
    this.assertImplemented(request.channelCode as Channel);
    const now = new Date();
    const [row]: ConfigRow[] = await this.db.query(
      `INSERT INTO notifications.notification_configs AS c
         (tenant_id, notification_type_code, channel_code, enabled, disabled_at, updated_at)
       VALUES ($1, $2, $3, false, $4, $4)
       ON CONFLICT (tenant_id, notification_type_code, channel_code) DO UPDATE
         SET enabled = false,
             disabled_at = CASE WHEN c.enabled THEN EXCLUDED.disabled_at ELSE c.disabled_at END,
             updated_at = CASE WHEN c.enabled THEN EXCLUDED.updated_at ELSE c.updated_at END
       RETURNING *`,
      [principal.tenantId, request.notificationTypeCode, request.channelCode, now],
    );
    return toConfigResponse(toEntity(row));
  }

  async list(principal: Principal) {
    const rows = await this.db.getRepository(NotificationConfigEntity).find({
      where: { tenantId: principal.tenantId },
      order: { notificationTypeCode: 'ASC', channelCode: 'ASC' },
    });
    return { items: rows.map(toConfigResponse) };
  }

  types() {
    return {
      items: EVENT_TYPES.map((code) => ({
        code,
        description: EVENT_CATALOG[code].description,
        channels: [...IMPLEMENTED_CHANNELS],
        dataSchema: eventDataJsonSchema(code),
      })),
    };
  }

  private assertImplemented(channelCode: Channel): void {
    if (!isImplementedChannel(channelCode)) {
      throw new ProblemException(
        'notification_channel_not_implemented',
        422,
        { channelCode, available: IMPLEMENTED_CHANNELS },
        [
          {
            field: 'channelCode',
            message: `channel ${channelCode} is not implemented; available: ${IMPLEMENTED_CHANNELS.join(', ')}`,
          },
        ],
      );
    }
  }
}
