import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'pricing', name: 'exchange_rates' })
export class ExchangeRateEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ name: 'base_currency', type: 'char', length: 3 })
  baseCurrency: string;

  @PrimaryColumn({ name: 'quote_currency', type: 'char', length: 3 })
  quoteCurrency: string;

  @PrimaryColumn({ name: 'valid_from', type: 'date' })
  validFrom: string;

  /** numeric: read as a string by pg, turned into decimal.js, never a JS number. */
  @Column({ type: 'numeric', precision: 24, scale: 10 })
  rate: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
