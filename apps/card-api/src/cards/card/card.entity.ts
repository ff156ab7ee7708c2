import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AuthorisationFlags } from '../domain/card-settings';
import type { Network } from '../domain/service-codes';
import type { CardStatus } from '../domain/card-status';
import type { CardType } from '../domain/card-type';

@Entity({ schema: 'cards', name: 'cards' })
export class CardEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @Column({ name: 'card_id', type: 'varchar', length: 64 })
  cardId: string;

  @Column({ name: 'account_id', type: 'varchar', length: 64 })
  accountId: string;

  @Column({ type: 'varchar', length: 16 })
  network: Network;

  @Column({ name: 'card_type', type: 'varchar', length: 16 })
  cardType: CardType;

  /** Code of the tenant's usage group. */
  @Column({ name: 'usage_group', type: 'varchar', length: 64 })
  usageGroup: string;

  @Column({ type: 'varchar', length: 16 })
  status: CardStatus;

  @Column({ name: 'authorisation_types', type: 'jsonb' })
  authorisationTypes: AuthorisationFlags;

  @Column({ type: 'boolean' })
  renewable: boolean;

  @Column({ name: 'xpays_allowed', type: 'boolean' })
  xpaysAllowed: boolean;

  /** Incremented by every effective settings change; history rows carry the version they created. */
  @Column({ name: 'settings_version', type: 'integer' })
  settingsVersion: number;

  @Column({ name: 'settings_changed_at', type: 'timestamptz' })
  settingsChangedAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
