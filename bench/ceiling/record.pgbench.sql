-- notifier: the successes of the transaction's webhooks recorded together, as the notifier batches
-- them (attempt rows, delivery rows, the endpoint's health). {deliveries} and {endpoints} are the
-- fan-outs' delivery and endpoint ids.
WITH input AS (
         SELECT * FROM unnest(ARRAY[{deliveries}]::uuid[], ARRAY[{endpoints}]::uuid[], ARRAY[{times}]::timestamptz[], ARRAY[{times}]::timestamptz[], ARRAY[{durations}]::int[], ARRAY[{statuses}]::int[], ARRAY[{excerpts}]::text[])
           AS i(delivery_id, endpoint_id, started_at, finished_at, duration_ms, status_code, response_excerpt)),
       delivery AS (
         UPDATE notifications.webhook_deliveries d
            SET status = CASE WHEN d.status = 'PENDING' THEN 'SUCCEEDED' ELSE d.status END,
                next_attempt_at = NULL,
                delivered_at = CASE WHEN d.status = 'PENDING' THEN i.finished_at ELSE d.delivered_at END,
                attempt_count = d.attempt_count + 1, cycle_attempts = d.cycle_attempts + 1,
                last_attempt_at = i.finished_at, last_status_code = i.status_code, last_error = NULL, updated_at = now()
           FROM input i
          WHERE d.id = i.delivery_id
          AND d.id IN (SELECT id FROM notifications.webhook_deliveries WHERE id IN (SELECT delivery_id FROM input)
                       FOR NO KEY UPDATE SKIP LOCKED)
         RETURNING d.id, d.tenant_id, d.attempt_count, d.status, i.endpoint_id, i.started_at, i.finished_at,
                   i.duration_ms, i.status_code, CASE WHEN d.subject_erased_at IS NULL THEN i.response_excerpt END AS response_excerpt),
       attempt AS (
         INSERT INTO notifications.webhook_delivery_attempts
           (id, delivery_id, tenant_id, attempt_number, started_at, duration_ms, status_code, outcome, error, response_excerpt)
         SELECT gen_random_uuid(), id, tenant_id, attempt_count, started_at, duration_ms, status_code, 'SUCCEEDED', NULL,
                response_excerpt
           FROM delivery),
       endpoint AS (
         UPDATE notifications.webhook_endpoints e SET last_success_at = latest.finished_at, failing_since = NULL
           FROM (SELECT endpoint_id, max(finished_at) AS finished_at FROM delivery GROUP BY endpoint_id) latest
          WHERE e.id = latest.endpoint_id
            AND e.id IN (SELECT id FROM notifications.webhook_endpoints WHERE id IN (SELECT endpoint_id FROM delivery)
                         FOR NO KEY UPDATE SKIP LOCKED)
            AND (e.failing_since IS NOT NULL OR e.last_success_at IS NULL OR e.last_success_at < latest.finished_at - interval '1 second'))
       SELECT id, status FROM delivery;
