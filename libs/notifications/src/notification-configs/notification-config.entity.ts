import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ChannelCode } from '../channels';

@Entity({ schema: 'notifications', name: 'notification_configs' })
export class NotificationConfigEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ name: 'notification_type_code', type: 'varchar', length: 100 })
  notificationTypeCode: string;

  @PrimaryColumn({ name: 'channel_code', type: 'varchar', length: 32 })
  channelCode: ChannelCode;

  @Column({ type: 'boolean' })
  enabled: boolean;

  /** Events that occurred before this instant produce no notification. */
  @Column({ name: 'enabled_at', type: 'timestamptz', nullable: true })
  enabledAt: Date | null;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
