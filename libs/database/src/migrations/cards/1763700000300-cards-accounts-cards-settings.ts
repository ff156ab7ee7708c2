import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts, usage groups, cards with their settings in force, and the history of settings changes.
 * Keys are (tenant_id, business id) so every lookup is tenant-scoped by construction.
 */
export class CardsAccountsCardsSettings1763700000300 implements MigrationInterface {
  name = 'CardsAccountsCardsSettings1763700000300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS cards`);
    await q.query(`
      CREATE TABLE cards.accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        account_id varchar(64) NOT NULL,
        type varchar(16) NOT NULL CHECK (type IN ('CURRENT', 'CREDIT', 'PREPAID')),
        currency_code char(3) NOT NULL CHECK (currency_code ~ '^[A-Z]{3}$'),
        status varchar(16) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'BLOCKED', 'CLOSED')),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT accounts_tenant_account UNIQUE (tenant_id, account_id)
      )`);
    await q.query(`
      CREATE TABLE cards.usage_groups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        code varchar(64) NOT NULL,
        name varchar(200) NOT NULL,
        allowed_service_codes text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT usage_groups_tenant_code UNIQUE (tenant_id, code)
      )`);
    await q.query(`
      CREATE TABLE cards.cards (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        card_id varchar(64) NOT NULL,
        account_id varchar(64) NOT NULL,
        network varchar(16) NOT NULL CHECK (network IN ('VISA', 'MASTERCARD')),
        card_type varchar(16) NOT NULL CHECK (card_type IN ('DEBIT', 'CREDIT', 'PREPAID', 'GIFT')),
        usage_group varchar(64) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'BLOCKED', 'CLOSED')),
        authorisation_types jsonb NOT NULL,
        renewable boolean NOT NULL,
        xpays_allowed boolean NOT NULL,
        settings_version integer NOT NULL DEFAULT 1,
        settings_changed_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT cards_tenant_card UNIQUE (tenant_id, card_id),
        CONSTRAINT cards_account FOREIGN KEY (tenant_id, account_id) REFERENCES cards.accounts (tenant_id, account_id),
        CONSTRAINT cards_usage_group FOREIGN KEY (tenant_id, usage_group) REFERENCES cards.usage_groups (tenant_id, code)
      )`);
    await q.query(`CREATE INDEX cards_account_idx ON cards.cards (tenant_id, account_id)`);
    await q.query(`
      CREATE TABLE cards.card_settings_changes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES platform.tenants(id) ON DELETE CASCADE,
        card_id varchar(64) NOT NULL,
        version integer NOT NULL,
        previous jsonb NOT NULL,
        current jsonb NOT NULL,
        changed_fields text[] NOT NULL,
        cause varchar(24) NOT NULL DEFAULT 'SETTINGS_CHANGE' CHECK (cause IN ('SETTINGS_CHANGE', 'USAGE_GROUP_CHANGE')),
        token_id uuid,
        request_id varchar(128),
        changed_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT card_settings_changes_version UNIQUE (tenant_id, card_id, version),
        CONSTRAINT card_settings_changes_card FOREIGN KEY (tenant_id, card_id) REFERENCES cards.cards (tenant_id, card_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE cards.card_settings_changes`);
    await q.query(`DROP TABLE cards.cards`);
    await q.query(`DROP TABLE cards.usage_groups`);
    await q.query(`DROP TABLE cards.accounts`);
  }
}
