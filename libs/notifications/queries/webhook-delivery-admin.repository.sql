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
