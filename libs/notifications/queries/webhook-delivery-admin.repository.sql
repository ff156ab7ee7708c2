-- lockFailedOfEndpoint, requeue.1
SELECT id FROM notifications.webhook_deliveries
        WHERE tenant_id = $1 AND endpoint_id = $2 AND status = 'FAILED' AND created_at >= $3 AND created_at < $4
        FOR NO KEY UPDATE;

-- lockFailedOfEndpoint, requeue.2
UPDATE notifications.webhook_deliveries
          SET status = 'PENDING', cycle_attempts = 0, next_attempt_at = now(), updated_at = now()
        WHERE tenant_id = $1 AND id = ANY ($2::uuid[])
        RETURNING id;

-- failPendingOfEndpoint
UPDATE notifications.webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = $2, updated_at = now()
        WHERE endpoint_id = $1 AND status = 'PENDING';

-- pagePending
SELECT id, tenant_id, next_attempt_at, created_at FROM notifications.webhook_deliveries
        WHERE status = 'PENDING' AND (created_at, id) > ($1, $2)
          AND NOT (attempt_count = 0 AND created_at > $4)
        ORDER BY created_at, id LIMIT $3;

-- countPerHourOfEndpoint
WITH bounds AS (
         SELECT date_bin('1 hour', $3::timestamptz, timestamptz '2000-01-01 00:00:00+00') - ($4::int - 1) * interval '1 hour' AS first_hour,
                date_bin('1 hour', $3::timestamptz, timestamptz '2000-01-01 00:00:00+00') + interval '1 hour' AS until),
       counted AS (
         SELECT date_bin('1 hour', d.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour,
                count(*) FILTER (WHERE d.status = 'SUCCEEDED')::int AS succeeded,
                count(*) FILTER (WHERE d.status = 'FAILED')::int AS failed,
                count(*) FILTER (WHERE d.status = 'PENDING')::int AS pending
           FROM notifications.webhook_deliveries d, bounds b
          WHERE d.tenant_id = $1 AND d.endpoint_id = $2 AND d.created_at >= b.first_hour AND d.created_at < b.until
          GROUP BY 1)
       SELECT h.hour, coalesce(c.succeeded, 0) AS succeeded, coalesce(c.failed, 0) AS failed,
              coalesce(c.pending, 0) AS pending
         FROM bounds b
        CROSS JOIN generate_series(b.first_hour, b.until - interval '1 hour', interval '1 hour') AS h(hour)
         LEFT JOIN counted c ON c.hour = h.hour
        ORDER BY h.hour;

-- healthOfTenant
SELECT e.id AS endpoint_id,
              count(DISTINCT d.id) FILTER (WHERE d.status = 'SUCCEEDED')::int AS succeeded,
              count(DISTINCT d.id) FILTER (WHERE d.status = 'FAILED')::int AS failed,
              count(DISTINCT d.id) FILTER (WHERE d.status = 'PENDING')::int AS pending,
              percentile_disc(0.95) WITHIN GROUP (ORDER BY a.duration_ms) AS p95_duration_ms
         FROM notifications.webhook_endpoints e
         LEFT JOIN notifications.webhook_deliveries d
           ON d.endpoint_id = e.id AND d.tenant_id = $1 AND d.created_at >= $2
         LEFT JOIN notifications.webhook_delivery_attempts a ON a.delivery_id = d.id
        WHERE e.tenant_id = $1 AND e.deleted_at IS NULL
        GROUP BY e.id
        ORDER BY e.created_at, e.id;
