-- deleteFinishedBefore
WITH doomed AS (
         SELECT id FROM notifications.webhook_deliveries
          WHERE status <> 'PENDING' AND updated_at < $1
          LIMIT $2 FOR UPDATE SKIP LOCKED),
       attempts AS (
         DELETE FROM notifications.webhook_delivery_attempts a USING doomed
          WHERE a.delivery_id = doomed.id
         RETURNING 1),
       deliveries AS (
         -- the foreign key from attempts is checked at the end of the statement, after both deletes
         DELETE FROM notifications.webhook_deliveries d USING doomed
          WHERE d.id = doomed.id
         RETURNING 1)
       SELECT (SELECT count(*)::int FROM deliveries) AS deliveries, (SELECT count(*)::int FROM attempts) AS attempts;

-- deleteProcessedEventsBefore
WITH gone AS (
         DELETE FROM events.outbox
          WHERE ctid IN (SELECT o.ctid FROM events.outbox o
                          WHERE o.processed_at IS NOT NULL AND o.processed_at < $1
                            -- by tenant and event: the unique key's leading columns; OFFSET 0 keeps it a
                            -- lookup per event rather than a hash of every delivery
                            AND NOT EXISTS (SELECT 1 FROM notifications.webhook_deliveries d
                                              JOIN platform.tenants t ON t.id = d.tenant_id
                                             WHERE t.code = o.tenant_code AND d.event_id = o.id OFFSET 0)
                          LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone;
