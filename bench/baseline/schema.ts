/**
 * Tables of the bare baseline, in a schema of their own in the benchmark database: the same
 * shape of data as fincore's (card with its flags and usage group, person profile, outbox), none
 * of fincore's tables written.
 */
export const BASELINE_SCHEMA_SQL = `
CREATE SCHEMA baseline;
CREATE TABLE baseline.usage_groups (
  tenant_id uuid NOT NULL,
  code text NOT NULL,
  allowed_service_codes text[] NOT NULL,
  PRIMARY KEY (tenant_id, code)
);
CREATE TABLE baseline.cards (
  tenant_id uuid NOT NULL,
  card_id text NOT NULL,
  account_id text NOT NULL,
  network text NOT NULL,
  usage_group text NOT NULL,
  status text NOT NULL,
  authorisation_types jsonb NOT NULL,
  renewable boolean NOT NULL,
  xpays_allowed boolean NOT NULL,
  settings_version integer NOT NULL DEFAULT 1,
  settings_changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, card_id)
);
CREATE TABLE baseline.persons (
  tenant_id uuid NOT NULL,
  person_id text NOT NULL,
  first_name text,
  last_name text,
  email text,
  phone text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, person_id)
);
CREATE TABLE baseline.outbox (
  id uuid PRIMARY KEY,
  type text NOT NULL,
  tenant_code text NOT NULL,
  occurred_at timestamptz NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
`;

/** Service codes of the specification; 10 and 11 exist on VISA only. */
export const SERVICE_CODES = ['00', '0A', '0C', '0M', '01', '09', '10', '11', '20', '21', '28', '30', '39'];
export const VISA_ONLY = new Set(['10', '11']);

/** The usage group both systems use in the settings scenario. */
export const BENCH_USAGE_GROUP = {
  code: 'BENCH_DEBIT',
  name: 'Benchmark debit',
  allowedServiceCodes: ['00', '0A', '0C', '01', '20', '30'],
};
