import { OutboxEventEntity } from '@fincore/events';
import type { TenantEntity } from '@fincore/platform';
import { NotificationRows } from '@test/support/builders/notifications';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../notifications-data.module';
import { WebhookDeliveryAttemptRepository } from './webhook-delivery-attempt.repository';
import { WebhookDeliveryFanOutRepository } from './webhook-delivery-fan-out.repository';

describe('WebhookDeliveryFanOutRepository', () => {
  let db: TestDatabase;
  let rows: NotificationRows;
  let sut: WebhookDeliveryFanOutRepository;
  let tenant: TenantEntity;

  beforeAll(async () => {
    db = await openTestDatabase([...NOTIFICATION_ENTITIES, OutboxEventEntity]);
    rows = new NotificationRows(db.dataSource);
    sut = new WebhookDeliveryFanOutRepository(db.dataSource);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    tenant = await db.createTenant();
  });

  const processedAt = async (eventId: string) =>
    (await db.dataSource.query(`SELECT processed_at FROM events.outbox WHERE id = $1`, [eventId]))[0]
      .processed_at as Date | null;

  describe('claimEventAndCreateDeliveries', () => {
    it('creates one pending delivery per subscribed endpoint and marks the event processed', async () => {
      await rows.enable(tenant);
      const all = await rows.endpoint(tenant);
      const typed = await rows.endpoint(tenant, { notificationTypeCodes: ['PERSON_UPDATED'] });
      const eventId = await rows.event(tenant);
      const now = new Date();

      const created = await sut.claimEventAndCreateDeliveries(eventId, now);

      expect(created).toHaveLength(2);
      expect(created.every((d) => d.notificationTypeCode === 'PERSON_UPDATED')).toBe(true);
      expect(created.every((d) => d.nextAttemptAt?.getTime() === now.getTime())).toBe(true);
      const stored = await Promise.all(created.map((d) => rows.deliveryRow(d.id)));
      expect(stored.map((d) => d.endpointId).sort()).toEqual([all.id, typed.id].sort());
      expect(stored.every((d) => d.status === 'PENDING' && d.eventId === eventId)).toBe(true);
      expect(await processedAt(eventId)).not.toBeNull();
    });

    it('answers with each delivery what its first attempt needs: endpoint, event and pause left', async () => {
      await rows.enable(tenant);
      const endpoint = await rows.endpoint(tenant, { rateLimit: 5 });
      const eventId = await rows.event(tenant);
      const [created] = await sut.claimEventAndCreateDeliveries(eventId, new Date());

      expect(created.forAttempt).toEqual(
        await new WebhookDeliveryAttemptRepository(db.dataSource).findForAttempt(created.id),
      );
      expect(created.forAttempt).toMatchObject({
        id: created.id,
        endpointId: endpoint.id,
        eventId,
        status: 'PENDING',
        endpointPausedForMs: 0,
        endpoint: { url: endpoint.url, rateLimit: 5, secretSealed: endpoint.secretSealed },
        event: { id: eventId, type: 'PERSON_UPDATED' },
      });
    });

    it('creates a delivery to a filtered endpoint only for the events that pass its filter', async () => {
      await rows.enable(tenant);
      const unfiltered = await rows.endpoint(tenant);
      const filtered = await rows.endpoint(tenant, { filter: { path: 'data.personId', equals: 'P-1' } });
      const passing = await rows.event(tenant, { personId: 'P-1' });
      const other = await rows.event(tenant, { personId: 'P-2' });

      const toPassing = await sut.claimEventAndCreateDeliveries(passing, new Date());
      const toOther = await sut.claimEventAndCreateDeliveries(other, new Date());

      expect(toPassing.map((d) => d.forAttempt.endpointId).sort()).toEqual(
        [unfiltered.id, filtered.id].sort(),
      );
      expect(toOther.map((d) => d.forAttempt.endpointId)).toEqual([unfiltered.id]);
      expect(await processedAt(other)).not.toBeNull();
    });

    it('never sends an event about an endpoint to that endpoint', async () => {
      await rows.enable(tenant, 'WEBHOOK_ENDPOINT_DISABLED');
      const about = await rows.endpoint(tenant, { status: 'ACTIVE' });
      const other = await rows.endpoint(tenant);
      const eventId = await rows.event(tenant, { type: 'WEBHOOK_ENDPOINT_DISABLED' });
      await db.dataSource.query(
        `UPDATE events.outbox SET subject_type = 'endpoint', subject_id = $2 WHERE id = $1`,
        [eventId, about.id],
      );

      const created = await sut.claimEventAndCreateDeliveries(eventId, new Date());

      expect(created.map((d) => d.forAttempt.endpointId)).toEqual([other.id]);
    });

    it('creates nothing the second time: the event is claimed once', async () => {
      await rows.enable(tenant);
      await rows.endpoint(tenant);
      const eventId = await rows.event(tenant);
      expect(await sut.claimEventAndCreateDeliveries(eventId, new Date())).toHaveLength(1);

      expect(await sut.claimEventAndCreateDeliveries(eventId, new Date())).toEqual([]);
    });

    it('skips endpoints that are disabled, deleted, created after the event or want other types', async () => {
      await rows.enable(tenant);
      const occurredAt = new Date('2026-02-01T00:00:00Z');
      await rows.endpoint(tenant, { status: 'DISABLED' });
      await rows.endpoint(tenant, { deletedAt: new Date() });
      await rows.endpoint(tenant, { createdAt: new Date('2026-02-02T00:00:00Z') });
      await rows.endpoint(tenant, { notificationTypeCodes: ['CARD_SETTINGS_CHANGED'] });
      const eventId = await rows.event(tenant, { occurredAt });

      expect(await sut.claimEventAndCreateDeliveries(eventId, new Date())).toEqual([]);
      expect(await processedAt(eventId)).not.toBeNull();
    });

    it('creates nothing unless the type was enabled over WEBHOOK before the event occurred', async () => {
      await rows.endpoint(tenant);
      const before = await rows.event(tenant, { occurredAt: new Date('2025-12-31T00:00:00Z') });
      const otherType = await rows.event(tenant, { type: 'CARD_SETTINGS_CHANGED' });
      await rows.enable(tenant, 'PERSON_UPDATED', new Date('2026-01-01T00:00:00Z'));

      expect(await sut.claimEventAndCreateDeliveries(before, new Date())).toEqual([]);
      expect(await sut.claimEventAndCreateDeliveries(otherType, new Date())).toEqual([]);
    });

    it("does not deliver one tenant's event to another tenant's endpoints", async () => {
      const other = await db.createTenant();
      await rows.enable(other);
      await rows.endpoint(other);
      await rows.enable(tenant);
      const eventId = await rows.event(tenant);

      expect(await sut.claimEventAndCreateDeliveries(eventId, new Date())).toEqual([]);
    });
  });

  describe('findPendingForEvent', () => {
    it('answers undefined for an event that is not in the outbox', async () => {
      expect(
        await sut.findPendingForEvent('00000000-0000-4000-8000-000000000000', new Date()),
      ).toBeUndefined();
    });

    it('answers an empty list for an event nobody subscribed to', async () => {
      const eventId = await rows.event(tenant, { processed: true });
      expect(await sut.findPendingForEvent(eventId, new Date())).toEqual([]);
    });

    it('answers only the pending deliveries of the event, with their due time', async () => {
      const endpoint = await rows.endpoint(tenant);
      const eventId = await rows.event(tenant, { processed: true });
      const due = new Date('2026-03-01T00:00:00Z');
      const pending = await rows.delivery(endpoint, { eventId, nextAttemptAt: due });
      const other = await rows.endpoint(tenant);
      await rows.delivery(other, { eventId, status: 'SUCCEEDED', nextAttemptAt: null });

      expect(await sut.findPendingForEvent(eventId, new Date())).toEqual([
        { id: pending.id, tenantId: tenant.id, nextAttemptAt: due },
      ]);
    });

    it('leaves out a delivery created after the given time and never attempted: its first attempt may be under way', async () => {
      const endpoint = await rows.endpoint(tenant);
      const eventId = await rows.event(tenant, { processed: true });
      const since = new Date('2026-03-01T00:00:00Z');
      const after = new Date('2026-03-01T00:00:01Z');
      const fresh = await rows.delivery(endpoint, { eventId, createdAt: after, attemptCount: 0 });
      const retried = await rows.delivery(await rows.endpoint(tenant), {
        eventId,
        createdAt: after,
        attemptCount: 1,
      });
      const older = await rows.delivery(await rows.endpoint(tenant), {
        eventId,
        createdAt: since,
        attemptCount: 0,
      });

      const ids = (await sut.findPendingForEvent(eventId, since))!.map((d) => d.id);

      expect(ids).toEqual(expect.arrayContaining([retried.id, older.id]));
      expect(ids).not.toContain(fresh.id);
      expect(ids).toHaveLength(2);
    });
  });

  describe('ordered endpoints', () => {
    const sequences = async (endpointId: string) =>
      (
        await db.dataSource.query(
          `SELECT o.id AS "eventId", d.subject_id AS "subjectId", d.sequence::int AS sequence
             FROM notifications.webhook_deliveries d JOIN events.outbox o ON o.id = d.event_id
            WHERE d.endpoint_id = $1 ORDER BY o.position`,
          [endpointId],
        )
      ).map((r: { eventId: string; subjectId: string; sequence: number | null }) => r);

    it('numbers deliveries 1, 2, 3 per subject in commit order, even when a later event comes first', async () => {
      await rows.enable(tenant);
      const ordered = await rows.endpoint(tenant, { ordering: 'SUBJECT' });
      const parallel = await rows.endpoint(tenant);
      const [first, second, third] = [
        await rows.event(tenant, { personId: 'p-1' }),
        await rows.event(tenant, { personId: 'p-1' }),
        await rows.event(tenant, { personId: 'p-1' }),
      ];
      const otherSubject = await rows.event(tenant, { personId: 'p-2' });

      // The third event's fan-out takes the two earlier ones of its subject along, oldest first.
      expect(await sut.claimEventAndCreateDeliveries(third, new Date())).toHaveLength(6);
      expect(await sut.claimEventAndCreateDeliveries(first, new Date())).toEqual([]);
      await sut.claimEventAndCreateDeliveries(otherSubject, new Date());

      expect(await sequences(ordered.id)).toEqual([
        { eventId: first, subjectId: 'p-1', sequence: 1 },
        { eventId: second, subjectId: 'p-1', sequence: 2 },
        { eventId: third, subjectId: 'p-1', sequence: 3 },
        { eventId: otherSubject, subjectId: 'p-2', sequence: 1 },
      ]);
      expect((await sequences(parallel.id)).map((d: { sequence: number | null }) => d.sequence)).toEqual([
        null,
        null,
        null,
        null,
      ]);
    });

    it('keeps the sequence gap-free for an endpoint that receives only some types', async () => {
      await rows.enable(tenant);
      await rows.enable(tenant, 'CARD_SETTINGS_CHANGED');
      const onlyPersons = await rows.endpoint(tenant, {
        ordering: 'SUBJECT',
        notificationTypeCodes: ['PERSON_UPDATED'],
      });
      const events = [
        await rows.event(tenant, { personId: 'p-1' }),
        await rows.event(tenant, { personId: 'p-1', type: 'CARD_SETTINGS_CHANGED' }),
        await rows.event(tenant, { personId: 'p-1' }),
      ];
      for (const id of events) await sut.claimEventAndCreateDeliveries(id, new Date());

      expect((await sequences(onlyPersons.id)).map((d: { sequence: number }) => d.sequence)).toEqual([1, 2]);
    });

    it("counts a tenant's pending deliveries as its backlog", async () => {
      const endpoint = await rows.endpoint(tenant);
      await rows.delivery(endpoint);
      await rows.delivery(endpoint);
      await rows.delivery(endpoint, { status: 'SUCCEEDED' });

      expect(await sut.countPendingOfTenant(tenant.id)).toBe(2);
    });
  });
});
