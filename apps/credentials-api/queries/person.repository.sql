-- findByPersonId
SELECT "id", "tenant_id", "person_id", "first_name", "last_name", "email", "phone", "username", "username_key", "password_hash", "credentials_status", "credentials_invalidated_at", "credentials_updated_at", "created_at", "updated_at", "erased_at", "erased_by_token_id", "erasure_request_id" FROM credentials.persons WHERE tenant_id = $1 AND person_id = $2;

-- updateProfileIfUnchanged
WITH p AS (
         UPDATE credentials.persons SET first_name = $1, last_name = $2, email = $3, phone = $4, updated_at = $5
          WHERE id = $6 AND erased_at IS NULL AND first_name IS NOT DISTINCT FROM $7::varchar
            AND last_name IS NOT DISTINCT FROM $8::varchar
            AND email IS NOT DISTINCT FROM $9::varchar
            AND phone IS NOT DISTINCT FROM $10::varchar
         RETURNING "id", "tenant_id", "person_id", "first_name", "last_name", "email", "phone", "username", "username_key", "password_hash", "credentials_status", "credentials_invalidated_at", "credentials_updated_at", "created_at", "updated_at", "erased_at", "erased_by_token_id", "erasure_request_id"),
       o AS (INSERT INTO events.outbox (id, type, tenant_code, occurred_at, correlation_id, data, subject_type, subject_id,
                                  trace_context, published_at, publish_attempts)
       SELECT e.*, $11::text, now(), 1
         FROM unnest($12::uuid[], $13::varchar[], $14::varchar[], $15::timestamptz[],
                     $16::varchar[], $17::jsonb[], $18::varchar[], $19::text[]) AS e WHERE EXISTS (SELECT 1 FROM p))
       SELECT "id", "tenant_id", "person_id", "first_name", "last_name", "email", "phone", "username", "username_key", "password_hash", "credentials_status", "credentials_invalidated_at", "credentials_updated_at", "created_at", "updated_at", "erased_at", "erased_by_token_id", "erasure_request_id" FROM p;
