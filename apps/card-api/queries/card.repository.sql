-- lockCardForChange
SELECT g.id AS "g_id", g.tenant_id AS "g_tenant_id", g.code AS "g_code", g.name AS "g_name", g.allowed_service_codes AS "g_allowed_service_codes", g.created_at AS "g_created_at", g.updated_at AS "g_updated_at", c.id AS "c_id", c.tenant_id AS "c_tenant_id", c.card_id AS "c_card_id", c.account_id AS "c_account_id", c.network AS "c_network", c.card_type AS "c_card_type", c.usage_group AS "c_usage_group", c.status AS "c_status", c.authorisation_types AS "c_authorisation_types", c.renewable AS "c_renewable", c.xpays_allowed AS "c_xpays_allowed", c.settings_version AS "c_settings_version", c.settings_changed_at AS "c_settings_changed_at", c.created_at AS "c_created_at"
         FROM cards.usage_groups g JOIN cards.cards c ON c.tenant_id = g.tenant_id AND c.usage_group = g.code
        WHERE c.tenant_id = $1 AND c.card_id = $2
          FOR SHARE OF g FOR UPDATE OF c;

-- readCardForChange
SELECT g.id AS "g_id", g.tenant_id AS "g_tenant_id", g.code AS "g_code", g.name AS "g_name", g.allowed_service_codes AS "g_allowed_service_codes", g.created_at AS "g_created_at", g.updated_at AS "g_updated_at", c.id AS "c_id", c.tenant_id AS "c_tenant_id", c.card_id AS "c_card_id", c.account_id AS "c_account_id", c.network AS "c_network", c.card_type AS "c_card_type", c.usage_group AS "c_usage_group", c.status AS "c_status", c.authorisation_types AS "c_authorisation_types", c.renewable AS "c_renewable", c.xpays_allowed AS "c_xpays_allowed", c.settings_version AS "c_settings_version", c.settings_changed_at AS "c_settings_changed_at", c.created_at AS "c_created_at"
         FROM cards.usage_groups g JOIN cards.cards c ON c.tenant_id = g.tenant_id AND c.usage_group = g.code
        WHERE c.tenant_id = $1 AND c.card_id = $2;

-- changeSettingsIfUnchanged
WITH g AS MATERIALIZED (
         SELECT 1 FROM cards.usage_groups
          WHERE tenant_id = $1 AND code = $2 AND allowed_service_codes = $3::text[]
            FOR SHARE),
       c AS (
         UPDATE cards.cards SET authorisation_types = $4, renewable = $5, xpays_allowed = $6,
                settings_version = $7, settings_changed_at = $8
          WHERE id = $9 AND tenant_id = $1 AND usage_group = $2 AND network = $10 AND status <> $11
            AND settings_version = $12 AND EXISTS (SELECT 1 FROM g)
         RETURNING 1),
       h AS (INSERT INTO cards.card_settings_changes
           (tenant_id, card_id, version, previous, current, changed_fields, cause, token_id, request_id, changed_at)
         SELECT r.tenant_id, r.card_id, r.version, r.previous, r.current,
                ARRAY(SELECT jsonb_array_elements_text(r.changed_fields)), r.cause, r.token_id, r.request_id, r.changed_at
           FROM jsonb_to_recordset($13::jsonb) AS r(tenant_id uuid, card_id varchar, version integer, previous jsonb,
                current jsonb, changed_fields jsonb, cause varchar, token_id uuid, request_id varchar, changed_at timestamptz) WHERE EXISTS (SELECT 1 FROM c)),
       o AS (INSERT INTO events.outbox (id, type, tenant_code, occurred_at, correlation_id, data, subject_type, subject_id,
                                  trace_context, published_at, publish_attempts)
       SELECT e.*, $14::text, now(), 1
         FROM unnest($15::uuid[], $16::varchar[], $17::varchar[], $18::timestamptz[],
                     $19::varchar[], $20::jsonb[], $21::varchar[], $22::text[]) AS e WHERE EXISTS (SELECT 1 FROM c))
       SELECT count(*)::int AS applied FROM c;

-- updateSettings
UPDATE cards.cards SET authorisation_types = $2, renewable = $3, xpays_allowed = $4,
              settings_version = $5, settings_changed_at = $6
        WHERE id = $1;

-- updateFlagsOfCards
UPDATE cards.cards c SET authorisation_types = v.flags, settings_version = v.version, settings_changed_at = $2
         FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, flags jsonb, version integer)
        WHERE c.id = v.id;

-- findRef
SELECT card_id, account_id, network, card_type, status FROM cards.cards WHERE tenant_id = $1 AND card_id = $2;
