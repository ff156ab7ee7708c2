import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pricing: the tenant's catalogs (transaction types, labels), price lists with their fee rules,
 * and exchange rates. Account and card ids are the cards context's business ids, kept as strings
 * (no cross-schema foreign key: the pricing schema must not depend on the cards tables).
 */
export class PricingCatalogsPriceListsRates1763700000500 implements MigrationInterface {
  name = 'PricingCatalogsPriceListsRates1763700000500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS pricing`);
    // Equality on uuid/text inside a GiST exclusion constraint (no overlapping validity periods).
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await q.query(`
      CREATE TABLE pricing.transaction_types (
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        code varchar(40) NOT NULL CHECK (code ~ '^[A-Z][A-Z0-9_]*$'),
        name varchar(200) NOT NULL,
        zero_amount_allowed boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, code)
      )`);
    await q.query(`
      CREATE TABLE pricing.labels (
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        code varchar(40) NOT NULL CHECK (code ~ '^[A-Z][A-Z0-9_]*$'),
        name varchar(200) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, code)
      )`);
    await q.query(`
      CREATE TABLE pricing.price_lists (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        code varchar(64) NOT NULL,
        name varchar(200) NOT NULL,
        level varchar(8) NOT NULL CHECK (level IN ('TENANT', 'ACCOUNT', 'CARD')),
        account_id varchar(64),
        card_id varchar(64),
        valid_from date NOT NULL,
        valid_to date,
        rules jsonb NOT NULL,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT price_lists_tenant_code UNIQUE (tenant_id, code),
        CONSTRAINT price_lists_owner CHECK (
          (level = 'TENANT' AND account_id IS NULL AND card_id IS NULL) OR
          (level = 'ACCOUNT' AND account_id IS NOT NULL AND card_id IS NULL) OR
          (level = 'CARD' AND card_id IS NOT NULL AND account_id IS NULL)),
        CONSTRAINT price_lists_period CHECK (valid_to IS NULL OR valid_to >= valid_from),
        CONSTRAINT price_lists_no_overlap EXCLUDE USING gist (
          tenant_id WITH =, level WITH =, coalesce(account_id, '') WITH =, coalesce(card_id, '') WITH =,
          daterange(valid_from, valid_to, '[]') WITH &&)
      )`);
    await q.query(`
      CREATE TABLE pricing.exchange_rates (
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        base_currency char(3) NOT NULL,
        quote_currency char(3) NOT NULL,
        valid_from date NOT NULL,
        rate numeric(24, 10) NOT NULL CHECK (rate > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, base_currency, quote_currency, valid_from),
        CHECK (base_currency <> quote_currency)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE pricing.exchange_rates`);
    await q.query(`DROP TABLE pricing.price_lists`);
    await q.query(`DROP TABLE pricing.labels`);
    await q.query(`DROP TABLE pricing.transaction_types`);
  }
}
