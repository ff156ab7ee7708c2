import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { CardSettings, SettingsChangeCause } from '../domain/card-settings';

/** One effective change of a card's settings: the audit trail behind GET .../settings/history. */
@Entity({ schema: 'cards', name: 'card_settings_changes' })
export class CardSettingsChangeEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @Column({ name: 'card_id', type: 'varchar', length: 64 })
  cardId: string;

  /** The settings version this change created. */
  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'jsonb' })
  previous: CardSettings;

  @Column({ type: 'jsonb' })
  current: CardSettings;

  @Column({ name: 'changed_fields', type: 'text', array: true })
  changedFields: string[];

  @Column({ type: 'varchar', length: 24 })
  cause: SettingsChangeCause;

  @Column({ name: 'token_id', type: 'uuid', nullable: true })
  tokenId: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt: Date;
}
