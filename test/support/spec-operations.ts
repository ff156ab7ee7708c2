import type { DataSource } from 'typeorm';
import { atmAbroad, provisionFeeWorld } from './builders/fee-world';
import { personInput } from './builders/persons';
import { cardFootprint, provisionCard, setUpCardTenant, STANDARD_CODES } from './card-settings';
import { ApiClient, expectStatus } from './http';
import { OutageWorld, startOutageWorld, Stream } from './outage';
import type { SpawnedApp } from './stack';

/**
 * The outage world (the credentials API on a PostgreSQL and a Redis of the test's own, with
 * OUTAGE_BOUNDS) plus card-api and notification-api as processes, and acme set up for the four
 * spec operations.
 */
export interface SpecOperationsWorld extends OutageWorld {
  apps: SpawnedApp[];
  cards: ApiClient;
  notifications: ApiClient;
  /** Cards whose settings the settings stream changes, one after the other. */
  cardIds: string[];
}

export async function startSpecOperationsWorld(): Promise<SpecOperationsWorld> {
  const outage = await startOutageWorld();
  try {
    const apps = [outage.sut];
    const client = async (name: 'card-api' | 'notification-api') => {
      const app = await outage.stack.spawnApp(name, { LOG_LEVEL: 'warn' });
      apps.push(app);
      return new ApiClient(app.url, outage.acme.token);
    };
    const cards = await client('card-api');
    const notifications = await client('notification-api');
    await setUpCardTenant(cards, outage.acme.token);
    const cardIds = [];
    for (const _ of [1, 2]) cardIds.push(await provisionCard(cards, outage.acme.token));
    return { ...outage, apps, cards, notifications, cardIds };
  } catch (error) {
    await outage.close();
    throw error;
  }
}

/** What the streams were told, for the checks after the outages. */
export interface Acknowledged {
  invalidated: string[];
  /** Settings changes answered 200, by card. */
  settingsChanged: Record<string, number>;
  /** Fee quotes answered 200 with another body than the quote before every outage. */
  wrongQuotes: string[];
}

/**
 * One stream per spec operation. Invalidation takes a person of its own each time (created first,
 * an answer of the stream as well); a settings change sets the next of 256 distinct settings on
 * the next card; a fee quote asks the same quote each time; enable alternates with disable, so
 * every enable writes.
 */
export async function specOperationStreams(
  world: SpecOperationsWorld,
): Promise<{ streams: Record<string, Stream>; acknowledged: Acknowledged }> {
  const fees = await provisionFeeWorld(world.cards, world.acme.token, 'OUT');
  const quote = () => world.cards.post('/api/v1/transactions/calculate-fees', atmAbroad(fees));
  const baseline = expectStatus(await quote(), 200, 'the quote before any outage').text;
  const acknowledged: Acknowledged = { invalidated: [], settingsChanged: {}, wrongQuotes: [] };
  let change = 0;
  let toggle = 0;
  const streams: Record<string, Stream> = {
    'invalidate credentials': async () => {
      const person = personInput({}, 'invalidate');
      const created = await world.api.post('/api/v1/persons', person);
      if (created.status !== 201) return created;
      const r = await world.api.post('/api/v1/credentials/invalidate', person);
      if (r.status === 200) acknowledged.invalidated.push(person.personId);
      return r;
    },
    'change card settings': async () => {
      const n = ++change;
      const cardId = world.cardIds[n % world.cardIds.length];
      const r = await world.cards.post(`/api/v1/cards/${cardId}/settings/change`, settingsNumber(n), {
        headers: { 'x-tenant-code': world.acme.tenant.code },
      });
      const { settingsChanged } = acknowledged;
      if (r.status === 200) settingsChanged[cardId] = (settingsChanged[cardId] ?? 0) + 1;
      return r;
    },
    'calculate fees': async () => {
      const r = await quote();
      if (r.status === 200 && r.text !== baseline) acknowledged.wrongQuotes.push(r.text);
      return r;
    },
    'enable notifications': () =>
      world.notifications.put(`/api/v1/notification-config/${toggle++ % 2 ? 'disable' : 'enable'}`, {
        notificationTypeCode: 'PERSON_UPDATED',
        channelCode: 'WEBHOOK',
      }),
  };
  return { streams, acknowledged };
}

/** Settings whose bits are n's: renewable, xpaysAllowed, then one bit per STANDARD code. */
function settingsNumber(n: number) {
  return {
    authorisationTypes: STANDARD_CODES.map((serviceCode, bit) => ({
      serviceCode,
      allowed: ((n >> (bit + 2)) & 1) === 1,
    })),
    renewable: (n & 1) === 1,
    xpaysAllowed: (n & 2) === 2,
  };
}

/**
 * Nothing half-written: each person is invalidated exactly when one PERSON_UPDATED records it
 * (and every acknowledged invalidation is); each card's version, history and CARD_SETTINGS_CHANGED
 * events agree; the notification config's state has its timestamp.
 */
export async function expectNothingHalfWritten(
  world: SpecOperationsWorld,
  db: DataSource,
  acknowledged: Acknowledged,
): Promise<void> {
  const persons: Array<{ person_id: string; status: string; events: number }> = await db.query(
    `SELECT p.person_id, p.credentials_status AS status,
            (SELECT count(*)::int FROM events.outbox o
              WHERE o.type = 'PERSON_UPDATED' AND o.tenant_code = $2 AND o.data->>'personId' = p.person_id
                AND o.data->'credentials'->>'status' = 'INVALIDATED') AS events
       FROM credentials.persons p WHERE p.tenant_id = $1`,
    [world.acme.tenant.id, world.acme.tenant.code],
  );
  expect(persons.length).toBeGreaterThan(0);
  expect(
    persons.filter((p) => p.events !== (p.status === 'INVALIDATED' ? 1 : 0)).map((p) => JSON.stringify(p)),
  ).toEqual([]);
  const invalidated = new Set(persons.filter((p) => p.status === 'INVALIDATED').map((p) => p.person_id));
  expect(acknowledged.invalidated.filter((id) => !invalidated.has(id))).toEqual([]);

  for (const cardId of world.cardIds) {
    const { card, history, events } = await cardFootprint(db, cardId);
    expect({ cardId, history, events }).toEqual({
      cardId,
      history: card.settings_version - 1,
      events: history,
    });
    expect(history).toBeGreaterThanOrEqual(acknowledged.settingsChanged[cardId] ?? 0);
  }

  const configs: Array<{ enabled: boolean; enabled_at: Date | null; disabled_at: Date | null }> =
    await db.query(
      `SELECT enabled, enabled_at, disabled_at FROM notifications.notification_configs WHERE tenant_id = $1`,
      [world.acme.tenant.id],
    );
  expect(configs).toHaveLength(1);
  expect(configs[0].enabled ? configs[0].enabled_at : configs[0].disabled_at).not.toBeNull();
  expect(acknowledged.wrongQuotes).toEqual([]);
}
