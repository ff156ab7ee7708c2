import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The W3C trace context of the request that recorded the event, so the trace goes on from the
 * relay, the notifier and the webhook; null when tracing is off.
 */
export class EventsOutboxTraceContext1763700000935 implements MigrationInterface {
  name = 'EventsOutboxTraceContext1763700000935';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events.outbox ADD COLUMN trace_context text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events.outbox DROP COLUMN trace_context`);
  }
}
