-- claimEventAndCreateDeliveries
WITH event AS (
         UPDATE events.outbox x SET processed_at = now() WHERE x.id = ANY ($1::uuid[]) AND x.processed_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM events.outbox o WHERE o.processed_at IS NULL AND (o.tenant_code = x.tenant_code AND o.subject_type = x.subject_type
  AND o.subject_id = x.subject_id AND o.position < x.position) OFFSET 0)
         -- a tenant with filtered endpoints has its filters evaluated first, the locked way
         AND NOT EXISTS (SELECT 1 FROM platform.tenants ft JOIN notifications.webhook_endpoints fe ON fe.tenant_id = ft.id
                          WHERE ft.code = x.tenant_code AND fe.filter IS NOT NULL AND fe.status = 'ACTIVE'
                            AND fe.deleted_at IS NULL)
         RETURNING id, type, tenant_code, occurred_at, subject_type, subject_id, correlation_id, data, trace_context),
       target AS (
         SELECT event.id AS event_id, e.tenant_id, e.id AS endpoint_id, e.ordering
           FROM event
           JOIN platform.tenants t ON t.code = event.tenant_code
           JOIN notifications.notification_configs c
             ON c.tenant_id = t.id AND c.notification_type_code = event.type AND c.channel_code = $3
            AND c.enabled AND c.enabled_at <= event.occurred_at
           -- receivesDeliveries, in SQL
           JOIN notifications.webhook_endpoints e
             ON e.tenant_id = t.id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL AND e.created_at <= event.occurred_at
            AND (e.notification_type_codes IS NULL OR event.type = ANY (e.notification_type_codes))
            -- an endpoint is never told about itself (an operational event's subject is its endpoint)
            AND NOT (event.subject_type = 'endpoint' AND event.subject_id = e.id::text)
            -- a filtered endpoint only when the event passed its filter
            AND (e.filter IS NULL OR e.id = ANY ($5::uuid[]))),
       -- an ordered endpoint numbers its deliveries per subject: 1, 2, 3… in the order of fan-out
       sequenced AS (
         INSERT INTO notifications.webhook_subject_sequences AS s (endpoint_id, subject_type, subject_id, last_sequence)
         SELECT target.endpoint_id, event.subject_type, event.subject_id, 1
           FROM target JOIN event ON event.id = target.event_id
          WHERE target.ordering = $4 AND event.subject_id IS NOT NULL
         ON CONFLICT (endpoint_id, subject_type, subject_id) DO UPDATE SET last_sequence = s.last_sequence + 1
         RETURNING endpoint_id, subject_type, subject_id, last_sequence),
       -- Every join below pairs a delivery with one of the statement's few events, or looks a row up by
       -- its key: joining deliveries with deliveries (target, sequenced, created) would cost the square
       -- of an event's endpoints times the events claimed together.
       created AS (
         INSERT INTO notifications.webhook_deliveries
           (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, next_attempt_at,
            created_at, updated_at, subject_type, subject_id, sequence)
         SELECT gen_random_uuid(), target.tenant_id, target.endpoint_id, event.id, event.type, event.occurred_at,
                'PENDING'::varchar, $2::timestamptz, $2::timestamptz, $2::timestamptz, event.subject_type, event.subject_id,
                NULL::bigint
           FROM target JOIN event ON event.id = target.event_id
          WHERE NOT (target.ordering = $4 AND event.subject_id IS NOT NULL)
         UNION ALL
         -- no two events of one tenant claimed together share a subject; two tenants' may
         SELECT gen_random_uuid(), e.tenant_id, s.endpoint_id, event.id, event.type, event.occurred_at,
                'PENDING', $2, $2, $2, event.subject_type, event.subject_id, s.last_sequence
           FROM sequenced s
           JOIN notifications.webhook_endpoints e ON e.id = s.endpoint_id
           JOIN platform.tenants t ON t.id = e.tenant_id
           JOIN event ON event.tenant_code = t.code
            AND event.subject_type = s.subject_type AND event.subject_id = s.subject_id
         ON CONFLICT (tenant_id, event_id, endpoint_id) DO NOTHING
         RETURNING id, tenant_id, endpoint_id, event_id, status, next_attempt_at, event_occurred_at,
                   subject_type, subject_id, sequence)
       -- with what the first attempt needs; one row without id says the event was claimed but nobody wants it
       SELECT event.id AS claimed_event_id, d.*, e.url, e.status AS endpoint_status, e.deleted_at, e.disabled_reason,
  e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
  e.rate_limit, e.payload, e.signature_schemes, e.signing_key_sealed, e.previous_signing_key_sealed,
  e.failing_notified_at, e.tls_sealed,
  GREATEST(0, EXTRACT(EPOCH FROM e.paused_until - clock_timestamp()) * 1000)::float8 AS paused_for_ms,
              event.type, event.tenant_code, event.occurred_at, event.correlation_id, event.data, event.trace_context
         FROM event
         LEFT JOIN created d ON d.event_id = event.id
         LEFT JOIN notifications.webhook_endpoints e ON e.id = d.endpoint_id;

-- claimEventAndCreateDeliveries, earlier events waiting.1
SELECT o.id FROM events.outbox o JOIN events.outbox x ON x.id = $1
          WHERE o.processed_at IS NULL
            AND (o.id = x.id OR (o.tenant_code = x.tenant_code AND o.subject_type = x.subject_type
  AND o.subject_id = x.subject_id AND o.position < x.position))
          ORDER BY o.position
          FOR UPDATE OF o;

-- claimEventAndCreateDeliveries, earlier events waiting.2
SELECT e.id, e.filter, x.type, x.subject_type, x.subject_id, x.data
         FROM events.outbox x
         JOIN platform.tenants t ON t.code = x.tenant_code
         JOIN notifications.webhook_endpoints e
           ON e.tenant_id = t.id AND e.filter IS NOT NULL AND e.status = 'ACTIVE' AND e.deleted_at IS NULL
        WHERE x.id = $1;

-- claimEventAndCreateDeliveries, earlier events waiting.3
WITH event AS (
         UPDATE events.outbox x SET processed_at = now() WHERE x.id = ANY ($1::uuid[]) AND x.processed_at IS NULL
         
         RETURNING id, type, tenant_code, occurred_at, subject_type, subject_id, correlation_id, data, trace_context),
       target AS (
         SELECT event.id AS event_id, e.tenant_id, e.id AS endpoint_id, e.ordering
           FROM event
           JOIN platform.tenants t ON t.code = event.tenant_code
           JOIN notifications.notification_configs c
             ON c.tenant_id = t.id AND c.notification_type_code = event.type AND c.channel_code = $3
            AND c.enabled AND c.enabled_at <= event.occurred_at
           -- receivesDeliveries, in SQL
           JOIN notifications.webhook_endpoints e
             ON e.tenant_id = t.id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL AND e.created_at <= event.occurred_at
            AND (e.notification_type_codes IS NULL OR event.type = ANY (e.notification_type_codes))
            -- an endpoint is never told about itself (an operational event's subject is its endpoint)
            AND NOT (event.subject_type = 'endpoint' AND event.subject_id = e.id::text)
            -- a filtered endpoint only when the event passed its filter
            AND (e.filter IS NULL OR e.id = ANY ($5::uuid[]))),
       -- an ordered endpoint numbers its deliveries per subject: 1, 2, 3… in the order of fan-out
       sequenced AS (
         INSERT INTO notifications.webhook_subject_sequences AS s (endpoint_id, subject_type, subject_id, last_sequence)
         SELECT target.endpoint_id, event.subject_type, event.subject_id, 1
           FROM target JOIN event ON event.id = target.event_id
          WHERE target.ordering = $4 AND event.subject_id IS NOT NULL
         ON CONFLICT (endpoint_id, subject_type, subject_id) DO UPDATE SET last_sequence = s.last_sequence + 1
         RETURNING endpoint_id, subject_type, subject_id, last_sequence),
       -- Every join below pairs a delivery with one of the statement's few events, or looks a row up by
       -- its key: joining deliveries with deliveries (target, sequenced, created) would cost the square
       -- of an event's endpoints times the events claimed together.
       created AS (
         INSERT INTO notifications.webhook_deliveries
           (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, next_attempt_at,
            created_at, updated_at, subject_type, subject_id, sequence)
         SELECT gen_random_uuid(), target.tenant_id, target.endpoint_id, event.id, event.type, event.occurred_at,
                'PENDING'::varchar, $2::timestamptz, $2::timestamptz, $2::timestamptz, event.subject_type, event.subject_id,
                NULL::bigint
           FROM target JOIN event ON event.id = target.event_id
          WHERE NOT (target.ordering = $4 AND event.subject_id IS NOT NULL)
         UNION ALL
         -- no two events of one tenant claimed together share a subject; two tenants' may
         SELECT gen_random_uuid(), e.tenant_id, s.endpoint_id, event.id, event.type, event.occurred_at,
                'PENDING', $2, $2, $2, event.subject_type, event.subject_id, s.last_sequence
           FROM sequenced s
           JOIN notifications.webhook_endpoints e ON e.id = s.endpoint_id
           JOIN platform.tenants t ON t.id = e.tenant_id
           JOIN event ON event.tenant_code = t.code
            AND event.subject_type = s.subject_type AND event.subject_id = s.subject_id
         ON CONFLICT (tenant_id, event_id, endpoint_id) DO NOTHING
         RETURNING id, tenant_id, endpoint_id, event_id, status, next_attempt_at, event_occurred_at,
                   subject_type, subject_id, sequence)
       -- with what the first attempt needs; one row without id says the event was claimed but nobody wants it
       SELECT event.id AS claimed_event_id, d.*, e.url, e.status AS endpoint_status, e.deleted_at, e.disabled_reason,
  e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
  e.rate_limit, e.payload, e.signature_schemes, e.signing_key_sealed, e.previous_signing_key_sealed,
  e.failing_notified_at, e.tls_sealed,
  GREATEST(0, EXTRACT(EPOCH FROM e.paused_until - clock_timestamp()) * 1000)::float8 AS paused_for_ms,
              event.type, event.tenant_code, event.occurred_at, event.correlation_id, event.data, event.trace_context
         FROM event
         LEFT JOIN created d ON d.event_id = event.id
         LEFT JOIN notifications.webhook_endpoints e ON e.id = d.endpoint_id;

-- findPendingForEvent
SELECT d.id, d.tenant_id, d.next_attempt_at FROM events.outbox o
           LEFT JOIN platform.tenants t ON t.code = o.tenant_code
           LEFT JOIN notifications.webhook_deliveries d ON d.tenant_id = t.id AND d.event_id = o.id AND d.status = 'PENDING'
                 AND NOT (d.attempt_count = 0 AND d.created_at > $2)
          WHERE o.id = $1;

-- countPendingOfTenant
SELECT count(*)::int AS n FROM notifications.webhook_deliveries WHERE tenant_id = $1 AND status = 'PENDING';

-- createForEndpoint
INSERT INTO notifications.webhook_deliveries
         (id, tenant_id, endpoint_id, event_id, notification_type_code, event_occurred_at, status, next_attempt_at,
          created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 'PENDING', now(), now(), now())
       RETURNING id;
