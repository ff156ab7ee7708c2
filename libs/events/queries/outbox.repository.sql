-- outboxInsertWhen
INSERT INTO events.outbox (id, type, tenant_code, occurred_at, correlation_id, data, subject_type, subject_id,
                                  trace_context, published_at, publish_attempts)
       SELECT e.*, $1::text, now(), 1
         FROM unnest($2::uuid[], $3::varchar[], $4::varchar[], $5::timestamptz[],
                     $6::varchar[], $7::jsonb[], $8::varchar[], $9::text[]) AS e WHERE EXISTS (SELECT 1 FROM guard);
