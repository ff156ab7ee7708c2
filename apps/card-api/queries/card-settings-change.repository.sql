-- insertChanges
INSERT INTO cards.card_settings_changes
           (tenant_id, card_id, version, previous, current, changed_fields, cause, token_id, request_id, changed_at)
         SELECT r.tenant_id, r.card_id, r.version, r.previous, r.current,
                ARRAY(SELECT jsonb_array_elements_text(r.changed_fields)), r.cause, r.token_id, r.request_id, r.changed_at
           FROM jsonb_to_recordset($1::jsonb) AS r(tenant_id uuid, card_id varchar, version integer, previous jsonb,
                current jsonb, changed_fields jsonb, cause varchar, token_id uuid, request_id varchar, changed_at timestamptz);
