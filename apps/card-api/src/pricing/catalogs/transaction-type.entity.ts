import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'pricing', name: 'transaction_types' })
export class TransactionTypeEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  code: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ name: 'zero_amount_allowed', type: 'boolean' })
  zeroAmountAllowed: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
