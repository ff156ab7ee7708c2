-- findForAttempt
SELECT d.id, d.tenant_id, d.endpoint_id, d.event_id, d.status, d.next_attempt_at, d.event_occurred_at,
              d.subject_type, d.subject_id, d.sequence, e.url, e.status AS endpoint_status, e.deleted_at, e.disabled_reason,
  e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
  e.rate_limit, e.payload, e.signature_schemes, e.signing_key_sealed, e.previous_signing_key_sealed,
  e.failing_notified_at, e.tls_sealed,
  GREATEST(0, EXTRACT(EPOCH FROM e.paused_until - clock_timestamp()) * 1000)::float8 AS paused_for_ms,
              o.type, o.tenant_code, o.occurred_at, o.correlation_id, o.data, o.trace_context
         FROM notifications.webhook_deliveries d
         JOIN notifications.webhook_endpoints e ON e.id = d.endpoint_id
         LEFT JOIN events.outbox o ON o.id = d.event_id
        WHERE d.id = $1;

-- pendingInChain
SELECT id, next_attempt_at FROM notifications.webhook_deliveries
        WHERE endpoint_id = $1 AND subject_type = $2 AND subject_id = $3 AND status = 'PENDING'
          AND sequence IS NOT NULL AND sequence < $4
        ORDER BY sequence LIMIT 1;

-- recordSucceededAttempt
WITH input AS (
         SELECT $1::uuid AS delivery_id, $2::uuid AS endpoint_id, $3::timestamptz AS started_at, $4::timestamptz AS finished_at, $5::int AS duration_ms, $6::int AS status_code, $7::text AS response_excerpt, $8::jsonb AS request_headers),
       delivery AS (
         UPDATE notifications.webhook_deliveries d
            SET status = CASE WHEN d.status = 'PENDING' THEN 'SUCCEEDED' ELSE d.status END,
                next_attempt_at = NULL,
                delivered_at = CASE WHEN d.status = 'PENDING' THEN i.finished_at ELSE d.delivered_at END,
                attempt_count = d.attempt_count + 1, cycle_attempts = d.cycle_attempts + 1,
                last_attempt_at = i.finished_at, last_status_code = i.status_code, last_error = NULL, updated_at = now()
           FROM input i
          WHERE d.id = i.delivery_id
         RETURNING d.id, d.tenant_id, d.attempt_count, d.status, i.endpoint_id, i.started_at, i.finished_at,
                   i.duration_ms, i.status_code, CASE WHEN d.subject_erased_at IS NULL THEN i.response_excerpt END AS response_excerpt,
                   i.request_headers),
       attempt AS (
         INSERT INTO notifications.webhook_delivery_attempts
           (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, status_code, outcome, error, response_excerpt,
            request_headers)
         SELECT gen_random_uuid(), id, tenant_id, attempt_count, started_at, duration_ms, status_code, 'SUCCEEDED', NULL,
                response_excerpt, request_headers
           FROM delivery),
       -- Only the endpoints whose health moves are locked: NO KEY, so the fan-outs' foreign-key checks of new
       -- deliveries to the endpoint need not wait; SKIP LOCKED, so a success never waits for the endpoint row
       -- while holding its delivery row and cannot deadlock with a disable or a failure being recorded (the
       -- next success records health).
       stale AS MATERIALIZED (
         SELECT e.id, latest.finished_at
           FROM (SELECT endpoint_id, max(finished_at) AS finished_at FROM delivery GROUP BY endpoint_id) latest
           JOIN notifications.webhook_endpoints e ON e.id = latest.endpoint_id
          WHERE e.failing_since IS NOT NULL OR e.last_success_at IS NULL
             OR e.last_success_at < latest.finished_at - interval '1 second'
            FOR NO KEY UPDATE OF e SKIP LOCKED),
       endpoint AS (
         UPDATE notifications.webhook_endpoints e SET last_success_at = stale.finished_at, failing_since = NULL
           FROM stale WHERE e.id = stale.id)
       SELECT id, status FROM delivery;

-- recordSucceededAttempts
WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::int[], $7::text[], $8::jsonb[])
           AS i(delivery_id, endpoint_id, started_at, finished_at, duration_ms, status_code, response_excerpt, request_headers)),
       held AS MATERIALIZED (
         SELECT id FROM notifications.webhook_deliveries WHERE id = ANY ($1::uuid[]) FOR NO KEY UPDATE SKIP LOCKED),
       delivery AS (
         UPDATE notifications.webhook_deliveries d
            SET status = CASE WHEN d.status = 'PENDING' THEN 'SUCCEEDED' ELSE d.status END,
                next_attempt_at = NULL,
                delivered_at = CASE WHEN d.status = 'PENDING' THEN i.finished_at ELSE d.delivered_at END,
                attempt_count = d.attempt_count + 1, cycle_attempts = d.cycle_attempts + 1,
                last_attempt_at = i.finished_at, last_status_code = i.status_code, last_error = NULL, updated_at = now()
           FROM input i
          WHERE d.id = i.delivery_id AND d.id IN (SELECT id FROM held)
         RETURNING d.id, d.tenant_id, d.attempt_count, d.status, i.endpoint_id, i.started_at, i.finished_at,
                   i.duration_ms, i.status_code, CASE WHEN d.subject_erased_at IS NULL THEN i.response_excerpt END AS response_excerpt,
                   i.request_headers),
       attempt AS (
         INSERT INTO notifications.webhook_delivery_attempts
           (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, status_code, outcome, error, response_excerpt,
            request_headers)
         SELECT gen_random_uuid(), id, tenant_id, attempt_count, started_at, duration_ms, status_code, 'SUCCEEDED', NULL,
                response_excerpt, request_headers
           FROM delivery),
       -- Only the endpoints whose health moves are locked: NO KEY, so the fan-outs' foreign-key checks of new
       -- deliveries to the endpoint need not wait; SKIP LOCKED, so a success never waits for the endpoint row
       -- while holding its delivery row and cannot deadlock with a disable or a failure being recorded (the
       -- next success records health).
       stale AS MATERIALIZED (
         SELECT e.id, latest.finished_at
           FROM (SELECT endpoint_id, max(finished_at) AS finished_at FROM delivery GROUP BY endpoint_id) latest
           JOIN notifications.webhook_endpoints e ON e.id = latest.endpoint_id
          WHERE e.failing_since IS NOT NULL OR e.last_success_at IS NULL
             OR e.last_success_at < latest.finished_at - interval '1 second'
            FOR NO KEY UPDATE OF e SKIP LOCKED),
       endpoint AS (
         UPDATE notifications.webhook_endpoints e SET last_success_at = stale.finished_at, failing_since = NULL
           FROM stale WHERE e.id = stale.id)
       SELECT id, status FROM delivery;

-- lockForFailedAttempt, recordFailedAttempt.1
SELECT cycle_attempts, attempt_count, status FROM notifications.webhook_deliveries
          WHERE id = $1 FOR NO KEY UPDATE;

-- lockForFailedAttempt, recordFailedAttempt.2
WITH delivery AS (
         UPDATE notifications.webhook_deliveries
            SET status = CASE WHEN status = 'PENDING' THEN $2::varchar ELSE status END,
                next_attempt_at = CASE WHEN status = 'PENDING' THEN $3::timestamptz END,
                attempt_count = attempt_count + 1, cycle_attempts = cycle_attempts + 1,
                last_attempt_at = $4::timestamptz, last_status_code = $5::int, last_error = $6::varchar, updated_at = now()
          WHERE id = $1
         RETURNING tenant_id, attempt_count, status, subject_erased_at),
       attempt AS (
         INSERT INTO notifications.webhook_delivery_attempts
           (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, status_code, outcome, error, response_excerpt,
            request_headers)
         SELECT gen_random_uuid(), $1, tenant_id, attempt_count, $7, $8, $5::int, $9::varchar, $6::varchar,
                CASE WHEN subject_erased_at IS NULL THEN $10 END, $11::jsonb
           FROM delivery)
       SELECT status FROM delivery;

-- failPendingDelivery
UPDATE notifications.webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = $2, updated_at = now()
        WHERE id = $1 AND status = 'PENDING';
