-- One person change and its webhook's fan-out, as fincore's processes issue them (the texts are
-- those of PostgreSQL's statement log of an events run; `:name` are pgbench variables where the
-- log shows parameters). {i} numbers the event within the transaction.
\set n{i} :client_id * :persons_per_client + random(0, :persons_per_client - 1)

-- credentials API: the person, then the change and its outbox row in one statement
SELECT "id", "tenant_id", "person_id", "first_name", "last_name", "email", "phone", "username", "username_key", "password_hash", "credentials_status", "credentials_invalidated_at", "credentials_updated_at", "created_at", "updated_at", "erased_at", "erased_by_token_id", "erasure_request_id" FROM credentials.persons WHERE tenant_id = :tenant_id AND person_id = 'bench-ceiling-' || :n{i}
\gset p{i}_

WITH p AS (
         UPDATE credentials.persons SET first_name = NULL, last_name = 'Changed ' || :e{i}, email = NULL, phone = NULL, updated_at = :now
          WHERE id = :p{i}_id AND erased_at IS NULL AND first_name IS NOT DISTINCT FROM NULL::varchar
            AND last_name IS NOT DISTINCT FROM :p{i}_last_name::varchar
            AND email IS NOT DISTINCT FROM NULL::varchar
            AND phone IS NOT DISTINCT FROM NULL::varchar
         RETURNING "id", "tenant_id", "person_id", "first_name", "last_name", "email", "phone", "username", "username_key", "password_hash", "credentials_status", "credentials_invalidated_at", "credentials_updated_at", "created_at", "updated_at", "erased_at", "erased_by_token_id", "erasure_request_id"),
       o AS (INSERT INTO events.outbox (id, type, tenant_code, occurred_at, correlation_id, data, subject_type, subject_id,
                                  trace_context, published_at, publish_attempts)
       SELECT e.*, NULL::text, now(), 1
         FROM unnest(ARRAY[:e{i}]::uuid[], '{PERSON_UPDATED}'::varchar[], ARRAY[:tenant_code]::varchar[], ARRAY[:now]::timestamptz[],
                     ARRAY[:c{i}]::varchar[], '{"{\"person\": {\"email\": null, \"phone\": null, \"lastName\": \"Changed bench-ceiling-0\", \"personId\": \"bench-ceiling-0\", \"firstName\": null}, \"personId\": \"bench-ceiling-0\", \"changedFields\": [\"lastName\"]}"}'::jsonb[],
                     '{person}'::varchar[], ARRAY['bench-ceiling-' || :n{i}]::text[]) AS e WHERE EXISTS (SELECT 1 FROM p))
       SELECT "id", "tenant_id", "person_id", "first_name", "last_name", "email", "phone", "username", "username_key", "password_hash", "credentials_status", "credentials_invalidated_at", "credentials_updated_at", "created_at", "updated_at", "erased_at", "erased_by_token_id", "erasure_request_id" FROM p;

-- notifier: the event claimed and fanned out to the tenant's endpoint, with what the attempt needs
WITH event AS (
         UPDATE events.outbox x SET processed_at = now() WHERE x.id = :e{i} AND x.processed_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM events.outbox o WHERE o.processed_at IS NULL AND (o.tenant_code = x.tenant_code AND o.subject_type = x.subject_type
  AND o.subject_id = x.subject_id AND o.position < x.position) OFFSET 0)
         AND NOT EXISTS (SELECT 1 FROM platform.tenants ft JOIN notifications.webhook_endpoints fe ON fe.tenant_id = ft.id
                          WHERE ft.code = x.tenant_code AND fe.filter IS NOT NULL AND fe.status = 'ACTIVE'
                            AND fe.deleted_at IS NULL)
         RETURNING id, type, tenant_code, occurred_at, subject_type, subject_id, correlation_id, data, trace_context),
       target AS (
         SELECT e.tenant_id, e.id AS endpoint_id, e.ordering, e.url, e.status AS endpoint_status, e.deleted_at, e.disabled_reason,
  e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
  e.rate_limit, e.payload, e.signature_schemes, e.signing_key_sealed, e.previous_signing_key_sealed,
  e.failing_notified_at, e.tls_sealed,
  GREATEST(0, EXTRACT(EPOCH FROM e.paused_until - clock_timestamp()) * 1000)::float8 AS paused_for_ms
           FROM event
           JOIN platform.tenants t ON t.code = event.tenant_code
           JOIN notifications.notification_configs c
             ON c.tenant_id = t.id AND c.notification_type_code = event.type AND c.channel_code = 'WEBHOOK'
            AND c.enabled AND c.enabled_at <= event.occurred_at
           JOIN notifications.webhook_endpoints e
             ON e.tenant_id = t.id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL AND e.created_at <= event.occurred_at
            AND (e.notification_type_codes IS NULL OR event.type = ANY (e.notification_type_codes))
            AND NOT (event.subject_type = 'endpoint' AND event.subject_id = e.id::text)
            AND (e.filter IS NULL OR e.id = ANY ('{}'::uuid[]))),
       sequenced AS (
         INSERT INTO notifications.webhook_subject_sequences AS s (endpoint_id, subject_type, subject_id, last_sequence)
         SELECT target.endpoint_id, event.subject_type, event.subject_id, 1 FROM target, event
          WHERE target.ordering = 'SUBJECT' AND event.subject_id IS NOT NULL
         ON CONFLICT (endpoint_id, subject_type, subject_id) DO UPDATE SET last_sequence = s.last_sequence + 1
         RETURNING endpoint_id, last_sequence),
       created AS (
         INSERT INTO notifications.webhook_deliveries
           (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, next_attempt_at,
            created_at, updated_at, subject_type, subject_id, sequence)
         SELECT gen_random_uuid(), target.tenant_id, target.endpoint_id, event.id, event.type, event.occurred_at,
                'PENDING', :now, :now, :now, event.subject_type, event.subject_id, sequenced.last_sequence
           FROM target CROSS JOIN event LEFT JOIN sequenced ON sequenced.endpoint_id = target.endpoint_id
         ON CONFLICT (tenant_id, event_id, endpoint_id) DO NOTHING
         RETURNING id, tenant_id, endpoint_id, event_id, status, next_attempt_at, event_occurred_at,
                   subject_type, subject_id, sequence)
       SELECT d.*, target.url, target.endpoint_status, target.deleted_at, target.disabled_reason,
              target.secret_sealed, target.previous_secret_sealed, target.previous_secret_expires_at,
              target.rate_limit, target.payload, target.signature_schemes, target.signing_key_sealed,
              target.previous_signing_key_sealed, target.failing_notified_at, target.tls_sealed, target.paused_for_ms,
              event.type, event.tenant_code, event.occurred_at, event.correlation_id, event.data, event.trace_context
         FROM event
         LEFT JOIN (created d JOIN target ON target.endpoint_id = d.endpoint_id) ON true
\gset f{i}_
