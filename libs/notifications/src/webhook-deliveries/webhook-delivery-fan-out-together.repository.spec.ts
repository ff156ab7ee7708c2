import { OutboxEventEntity } from '@fincore/events';
import type { TenantEntity } from '@fincore/platform';
import { NotificationRows } from '@test/support/builders/notifications';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { NOTIFICATION_ENTITIES } from '../notifications-data.module';
import { WebhookDeliveryFanOutRepository } from './webhook-delivery-fan-out.repository';

/** Several events claimed in one statement, as the notifier claims those that arrive together. */
describe('WebhookDeliveryFanOutRepository.claimEventsAlone', () => {
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
    await rows.enable(tenant);
  });

  const deliveriesOf = async (eventId: string) =>
    (
      await db.dataSource.query(
        `SELECT endpoint_id AS "endpointId", sequence::int AS sequence FROM notifications.webhook_deliveries
          WHERE event_id = $1 ORDER BY endpoint_id`,
        [eventId],
      )
    ).map((r: { endpointId: string; sequence: number | null }) => r);

  it('answers, per event and in the order asked, the deliveries the one statement created for it', async () => {
    const ordered = await rows.endpoint(tenant, { ordering: 'SUBJECT' });
    const parallel = await rows.endpoint(tenant);
    const events = [await rows.event(tenant), await rows.event(tenant), await rows.event(tenant)];

    const answers = await sut.claimEventsAlone(events, new Date());

    expect(answers.map((created) => created?.length)).toEqual([2, 2, 2]);
    answers.forEach((created, i) => {
      expect(created!.every((d) => d.forAttempt.eventId === events[i])).toBe(true);
      expect(created!.map((d) => d.forAttempt.endpointId).sort()).toEqual([ordered.id, parallel.id].sort());
    });
    for (const eventId of events) {
      expect(await deliveriesOf(eventId)).toEqual(
        [
          { endpointId: ordered.id, sequence: 1 },
          { endpointId: parallel.id, sequence: null },
        ].sort((a, b) => a.endpointId.localeCompare(b.endpointId)),
      );
    }
  });

  it('claims only the earlier of two events of one subject, and none processed before', async () => {
    await rows.endpoint(tenant, { ordering: 'SUBJECT' });
    const earlier = await rows.event(tenant, { personId: 'p-1' });
    const later = await rows.event(tenant, { personId: 'p-1' });
    const done = await rows.event(tenant, { processed: true });

    const answers = await sut.claimEventsAlone([later, done, earlier], new Date());

    expect(answers.map((created) => created?.length)).toEqual([undefined, undefined, 1]);
    expect(await deliveriesOf(later)).toEqual([]);
    // Left to the one-event way, which now finds it alone in its subject and numbers it next.
    expect(await sut.claimEventAndCreateDeliveries(later, new Date())).toHaveLength(1);
    expect((await deliveriesOf(later))[0].sequence).toBe(2);
  });

  it("keeps two tenants' events about a subject of the same id to their own tenant's endpoints", async () => {
    const other = await db.createTenant();
    await rows.enable(other);
    const mine = await rows.endpoint(tenant, { ordering: 'SUBJECT' });
    const theirs = await rows.endpoint(other, { ordering: 'SUBJECT' });
    const myEvent = await rows.event(tenant, { personId: 'p-1' });
    const theirEvent = await rows.event(other, { personId: 'p-1' });

    const [toMine, toTheirs] = await sut.claimEventsAlone([myEvent, theirEvent], new Date());

    expect(toMine!.map((d) => [d.tenantId, d.forAttempt.endpointId])).toEqual([[tenant.id, mine.id]]);
    expect(toTheirs!.map((d) => [d.tenantId, d.forAttempt.endpointId])).toEqual([[other.id, theirs.id]]);
    expect(await deliveriesOf(myEvent)).toEqual([{ endpointId: mine.id, sequence: 1 }]);
    expect(await deliveriesOf(theirEvent)).toEqual([{ endpointId: theirs.id, sequence: 1 }]);
  });

  it('answers an empty list for a claimed event nobody wants, and claims it', async () => {
    const unwanted = await rows.event(tenant, { type: 'CARD_SETTINGS_CHANGED' });
    const wanted = await rows.event(tenant);
    await rows.endpoint(tenant);

    expect((await sut.claimEventsAlone([unwanted, wanted], new Date())).map((c) => c?.length)).toEqual([
      0, 1,
    ]);
    expect(await sut.claimEventsAlone([unwanted], new Date())).toEqual([undefined]);
  });
});
