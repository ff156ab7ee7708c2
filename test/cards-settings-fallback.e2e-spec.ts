import { DataSource } from 'typeorm';
import { createUsageGroup, updateUsageGroup } from './support/builders/usage-groups';
import {
  changeSettings,
  expectHistoryChain,
  provisionCard,
  settingsBody,
  STANDARD_CODES,
  startCardApiReplicasWithCardTenant,
} from './support/card-settings';
import { RunningApp, TestStack, TenantFixture } from './support/stack';
import { expectProblem } from './support/problems';

/**
 * A replica checks a settings change against the card as it last knew it; these are the cases
 * where that knowledge is stale (another replica changed the card or its usage group, or changes
 * race), which must answer as if the card had been read under its lock.
 */
describe('card-api: settings changes checked against a card a replica knew before', () => {
  let stack: TestStack, sut: RunningApp, replica: RunningApp, db: DataSource, acme: TenantFixture;
  beforeAll(async () => {
    ({ stack, sut, replica, db, acme } = await startCardApiReplicasWithCardTenant());
  });
  afterAll(() => stack.close());

  const initial = settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+');
  /** The i-th of distinct bodies: code flags from i's bits, so no two of them are the same. */
  const nth = (i: number) => ({
    authorisationTypes: STANDARD_CODES.map((serviceCode, bit) => ({
      serviceCode,
      allowed: ((i + 1) & (1 << bit)) === 0,
    })),
    renewable: true,
    xpaysAllowed: false,
  });

  it('applies a change after another replica changed the card since, as the next version', async () => {
    const cardId = await provisionCard(sut.api, acme.token);
    const bodies = [nth(0), nth(1), nth(2), nth(3)];
    // sut knows the card at version 2, the replica moves it on to 3, then sut changes it again.
    for (const [i, app] of [sut, replica, sut, sut].entries()) {
      const r = await changeSettings(app.api, acme, cardId, bodies[i]);
      expect([r.status, r.body]).toEqual([200, bodies[i]]);
    }
    const { view, history } = await expectHistoryChain(sut.api, db, acme.token, cardId, initial);
    expect(view.version).toBe(5);
    expect(history.map((h: { current: unknown }) => h.current)).toEqual(bodies);
  });

  it('judges a change by the usage group in force, not the one the replica knew', async () => {
    const group = await createUsageGroup(sut.api, acme.token, { allowedServiceCodes: ['00', '01', '20'] });
    const cardId = await provisionCard(sut.api, acme.token, { usageGroup: group.code });
    const change = await changeSettings(sut.api, acme, cardId, settingsBody('00+ 01- 20+'));
    expect(change.status).toBe(200);

    // The group drops 20 and adds 30: the card's settings in force change with it (version 3).
    const updated = await updateUsageGroup(replica.api, acme.token, group.code, {
      name: group.name,
      allowedServiceCodes: ['00', '01', '30'],
    });
    expect(updated.status).toBe(200);

    expectProblem(
      await changeSettings(sut.api, acme, cardId, settingsBody('00+ 01+ 20+')),
      422,
      'service_code_not_in_usage_group',
    );
    const accepted = await changeSettings(sut.api, acme, cardId, settingsBody('00+ 01+ 30+'));
    expect([accepted.status, accepted.body]).toEqual([200, settingsBody('00+ 01+ 30+')]);

    const { view, history } = await expectHistoryChain(sut.api, db, acme.token, cardId);
    expect(view.version).toBe(4);
    expect(history.map((h: { cause: string }) => h.cause)).toEqual([
      'SETTINGS_CHANGE',
      'USAGE_GROUP_CHANGE',
      'SETTINGS_CHANGE',
    ]);
    expect(history[2].previous).toEqual(settingsBody('00+ 01- 30-'));
  });

  it('applies concurrent changes of one card on both replicas one after the other, one history entry and one event each', async () => {
    const cardId = await provisionCard(sut.api, acme.token);
    // Both replicas know the card first, so the racing changes start from what they knew.
    for (const app of [sut, replica]) {
      expect((await changeSettings(app.api, acme, cardId, initial)).status).toBe(200);
    }
    const CHANGES = 12;
    const answers = await Promise.all(
      Array.from({ length: CHANGES }, (_, i) =>
        changeSettings((i % 2 ? sut : replica).api, acme, cardId, nth(i)),
      ),
    );
    answers.forEach((r, i) => expect([r.status, r.body]).toEqual([200, nth(i)]));

    const { view, history } = await expectHistoryChain(sut.api, db, acme.token, cardId, initial);
    expect(view.version).toBe(CHANGES + 1);
    // Each change is in the history once, and the events are in the order of the versions.
    const applied = history.map((h: { current: unknown }) => h.current);
    expect([...applied].sort(byJson)).toEqual(answers.map((r) => r.body).sort(byJson));
    const events: Array<{ current: unknown }> = await db.query(
      `SELECT data -> 'current' AS current FROM events.outbox
        WHERE type = 'CARD_SETTINGS_CHANGED' AND subject_id = $1 ORDER BY position`,
      [cardId],
    );
    expect(events.map((e) => e.current)).toEqual(applied);
  });
});

const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
