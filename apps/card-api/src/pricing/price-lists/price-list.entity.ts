import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { FeeRuleDocument } from '../domain/fee-rule-document';
import type { PriceListLevel } from '../domain/pricing-model';

@Entity({ schema: 'pricing', name: 'price_lists' })
export class PriceListEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @Column({ type: 'varchar', length: 64 })
  code: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 8 })
  level: PriceListLevel;

  @Column({ name: 'account_id', type: 'varchar', length: 64, nullable: true })
  accountId: string | null;

  @Column({ name: 'card_id', type: 'varchar', length: 64, nullable: true })
  cardId: string | null;

  /** ISO date text: TypeORM reads `date` columns as YYYY-MM-DD strings. */
  @Column({ name: 'valid_from', type: 'date' })
  validFrom: string;

  @Column({ name: 'valid_to', type: 'date', nullable: true })
  validTo: string | null;

  /** The fee rules, in order (per fee type the first match wins); decimal figures as strings. */
  @Column({ type: 'jsonb' })
  rules: FeeRuleDocument[];

  @Column({ type: 'integer', default: 1 })
  version: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
