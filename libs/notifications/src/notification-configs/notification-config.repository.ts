import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChannelCode } from '../channels';
import { NotificationConfigEntity } from './notification-config.entity';

/** One tenant's switch for one notification type on one channel. */
export interface NotificationConfigKey {
  tenantId: string;
  notificationTypeCode: string;
  channelCode: ChannelCode;
}

interface ConfigRow {
  tenant_id: string;
  notification_type_code: string;
  channel_code: ChannelCode;
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

/**
 * `notifications.notification_configs`. Enabling and disabling are single upserts, so concurrent
 * switches of one key settle on one row without a prior read.
 */
@Injectable()
export class NotificationConfigRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Enables the key; one already enabled keeps its enabledAt and updatedAt, so no event is skipped or doubled. */
  async upsertEnabled(key: NotificationConfigKey, now: Date): Promise<NotificationConfigEntity> {
    const [row]: ConfigRow[] = await this.db.query(
      `INSERT INTO notifications.notification_configs AS c
         (tenant_id, notification_type_code, channel_code, enabled, enabled_at, updated_at)
       VALUES ($1, $2, $3, true, $4, $4)
       ON CONFLICT (tenant_id, notification_type_code, channel_code) DO UPDATE
         SET enabled = true,
             enabled_at = CASE WHEN c.enabled THEN c.enabled_at ELSE EXCLUDED.enabled_at END,
             updated_at = CASE WHEN c.enabled THEN c.updated_at ELSE EXCLUDED.updated_at END
       RETURNING *`,
      [key.tenantId, key.notificationTypeCode, key.channelCode, now],
    );
    return toEntity(row);
  }

  /** Disables the key; one already disabled keeps its disabledAt and updatedAt. */
  async upsertDisabled(key: NotificationConfigKey, now: Date): Promise<NotificationConfigEntity> {
    const [row]: ConfigRow[] = await this.db.query(
      `INSERT INTO notifications.notification_configs AS c
         (tenant_id, notification_type_code, channel_code, enabled, disabled_at, updated_at)
       VALUES ($1, $2, $3, false, $4, $4)
       ON CONFLICT (tenant_id, notification_type_code, channel_code) DO UPDATE
         SET enabled = false,
             disabled_at = CASE WHEN c.enabled THEN EXCLUDED.disabled_at ELSE c.disabled_at END,
             updated_at = CASE WHEN c.enabled THEN EXCLUDED.updated_at ELSE c.updated_at END
       RETURNING *`,
      [key.tenantId, key.notificationTypeCode, key.channelCode, now],
    );
    return toEntity(row);
  }

  listOfTenant(tenantId: string): Promise<NotificationConfigEntity[]> {
    return this.db.getRepository(NotificationConfigEntity).find({
      where: { tenantId },
      order: { notificationTypeCode: 'ASC', channelCode: 'ASC' },
    });
  }
}
