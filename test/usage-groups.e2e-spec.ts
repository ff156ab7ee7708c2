import { DataSource } from 'typeorm';
import { createUsageGroup, updateUsageGroup } from './support/builders/usage-groups';
import {
  cardFootprint,
  changeSettings,
  checkAuthorisation,
  AuthorisationEntry,
  entries,
  expectHistoryChain,
  getHistory,
  getSettings,
  provisionCard,
  settingsBody,
  startCardApiReplicasWithCardTenant,
} from './support/card-settings';
import { countRows } from './support/db';
import { uniqueId } from './support/builders/ids';
import { expectOutboxEvents } from './support/outbox';
import { RunningApp, TestStack, TenantFixture } from './support/stack';
import { expectProblem } from './support/problems';

describe('card-api: usage groups and the settings of their cards', () => {
  let stack: TestStack, sut: RunningApp, replica: RunningApp, db: DataSource;
  let acme: TenantFixture, other: TenantFixture;
  beforeAll(async () => {
    ({ stack, sut, replica, db, acme, other } = await startCardApiReplicasWithCardTenant());
  });
  afterAll(() => stack.close());

  const check = (cardId: string, serviceCode: string) =>
    checkAuthorisation(sut.api, acme.token, cardId, serviceCode);

  it('manages usage groups: 409 on a taken code, 404 for an unknown or foreign one, 400 on unknown or repeated codes', async () => {
    const create = (body: unknown, token = acme.token) =>
      sut.api.post('/api/v1/usage-groups', body, { token });
    expect(
      (await create({ code: 'ATM', name: 'ATM only', allowedServiceCodes: ['39', '01', '30'] })).body
        .allowedServiceCodes,
    ).toEqual(['01', '30', '39']);
    const taken = await create({ code: 'ATM', name: 'Again', allowedServiceCodes: ['01'] });
    expectProblem(taken, 409, 'usage_group_exists');
    const before = await countRows(db, 'cards.usage_groups');
    expect((await create({ code: 'BAD', name: 'Bad', allowedServiceCodes: ['01', '77'] })).status).toBe(400);
    expect((await create({ code: 'BAD', name: 'Bad', allowedServiceCodes: ['01', '01'] })).status).toBe(400);
    expect((await create({ code: 'BAD', name: 'Bad', allowedServiceCodes: [] })).status).toBe(400);
    expect(await countRows(db, 'cards.usage_groups')).toBe(before);
    const foreign = await sut.api.get('/api/v1/usage-groups/ATM', { token: other.token });
    expectProblem(foreign, 404, 'usage_group_not_found');
    const foreignUpdate = await updateUsageGroup(sut.api, other.token, 'ATM', {
      name: 'x',
      allowedServiceCodes: ['00'],
    });
    expect(foreignUpdate.status).toBe(404);
    expect(
      (await sut.api.get('/api/v1/usage-groups/ATM', { token: acme.token })).body.allowedServiceCodes,
    ).toEqual(['01', '30', '39']);
    const list = await sut.api.get('/api/v1/usage-groups', { token: acme.token });
    expect(list.body.items.map((g: { code: string }) => g.code)).toEqual(
      expect.arrayContaining(['ALL', 'ATM']),
    );
  });

  it('records a usage-group change in the history and events of every card whose settings it changes', async () => {
    const { code: group } = await createUsageGroup(sut.api, acme.token, {
      code: uniqueId('H'),
      name: 'ATM',
      allowedServiceCodes: ['01', '10', '30'],
    });
    const putGroup = (name: string, codes: string[], requestId: string) =>
      updateUsageGroup(
        sut.api,
        acme.token,
        group,
        { name, allowedServiceCodes: codes },
        { 'x-request-id': requestId },
      );
    const [visa, mastercard, outsider] = [
      await provisionCard(sut.api, acme.token, { usageGroup: group }),
      await provisionCard(sut.api, acme.token, { usageGroup: group, network: 'MASTERCARD' }),
      await provisionCard(sut.api, acme.token),
    ];
    const untouched = await cardFootprint(db, outsider);
    const historyOf = async (cardId: string) => (await getHistory(sut.api, acme.token, cardId)).body.items;
    const visaEvents = { type: 'CARD_SETTINGS_CHANGED', data: { cardId: visa } };

    // A new name alone changes no card's settings.
    expect((await putGroup('Cash', ['01', '10', '30'], `rename-${group}`)).status).toBe(200);
    expect(await historyOf(visa)).toEqual([]);
    await expectOutboxEvents(db, visaEvents, []);

    // Drop 01 and 10, add 39. 10 is VISA only, so the MASTERCARD card never carried it.
    expect((await putGroup('Cash', ['30', '39'], `narrow-${group}`)).status).toBe(200);
    const [visaEntry] = await historyOf(visa);
    expect(visaEntry).toMatchObject({
      version: 2,
      cause: 'USAGE_GROUP_CHANGE',
      changedFields: ['authorisationTypes.01', 'authorisationTypes.10', 'authorisationTypes.39'],
      previous: settingsBody('01+ 10+ 30+'),
      current: settingsBody('30+ 39-'),
      tokenId: acme.tokenEntity.id,
      requestId: `narrow-${group}`,
    });
    expect((await historyOf(mastercard))[0]).toMatchObject({
      version: 2,
      cause: 'USAGE_GROUP_CHANGE',
      changedFields: ['authorisationTypes.01', 'authorisationTypes.39'],
      previous: settingsBody('01+ 30+'),
      current: settingsBody('30+ 39-'),
    });
    await expectOutboxEvents(db, visaEvents, [
      {
        correlationId: `narrow-${group}`,
        data: {
          cardId: visa,
          cause: 'USAGE_GROUP_CHANGE',
          changedFields: visaEntry.changedFields,
          previous: visaEntry.previous,
          current: visaEntry.current,
        },
      },
    ]);
    expect((await check(visa, '01')).body).toMatchObject({
      reason: 'NOT_IN_USAGE_GROUP',
      settingsVersion: 2,
    });
    expect(await cardFootprint(db, outsider)).toEqual(untouched);

    // The chain goes on unbroken through the card's own next change.
    expect((await changeSettings(sut.api, acme, visa, settingsBody('30- 39+'))).status).toBe(200);
    const chain = await historyOf(visa);
    expect(chain.map((h: { version: number; cause: string }) => [h.version, h.cause])).toEqual([
      [3, 'SETTINGS_CHANGE'],
      [2, 'USAGE_GROUP_CHANGE'],
    ]);
    expect(chain[0].previous).toEqual(chain[1].current);
  });

  it('a code added to the usage group is not allowed on its cards until a change says so, and then must be listed', async () => {
    const { code: group } = await createUsageGroup(sut.api, acme.token, {
      code: uniqueId('G'),
      name: 'ATM',
      allowedServiceCodes: ['01', '30'],
    });
    const cardId = await provisionCard(sut.api, acme.token, { usageGroup: group });
    const widened = await updateUsageGroup(sut.api, acme.token, group, {
      name: 'ATM',
      allowedServiceCodes: ['01', '30', '39'],
    });
    expect(widened.status).toBe(200);
    expect((await check(cardId, '39')).body).toMatchObject({
      allowed: false,
      reason: 'DISABLED_IN_CARD_SETTINGS',
    });
    const missing = await changeSettings(sut.api, acme, cardId, settingsBody('01+ 30+'));
    expect([missing.status, missing.body.serviceCodes]).toEqual([422, ['39']]);
    expect((await changeSettings(sut.api, acme, cardId, settingsBody('01+ 30+ 39+'))).status).toBe(200);
    expect((await check(cardId, '39')).body.allowed).toBe(true);
  });

  it('a code removed from the usage group and added back is not allowed again until a change says so', async () => {
    const { code: group } = await createUsageGroup(sut.api, acme.token, {
      code: uniqueId('R'),
      name: 'ATM',
      allowedServiceCodes: ['01', '30'],
    });
    const putGroup = (codes: string[]) =>
      updateUsageGroup(sut.api, acme.token, group, { name: 'ATM', allowedServiceCodes: codes });
    const cardId = await provisionCard(sut.api, acme.token, { usageGroup: group });
    expect((await check(cardId, '01')).body).toMatchObject({ allowed: true, reason: 'ALLOWED' });
    expect((await putGroup(['30'])).status).toBe(200);
    expect((await check(cardId, '01')).body).toMatchObject({ allowed: false, reason: 'NOT_IN_USAGE_GROUP' });
    expect((await putGroup(['01', '30'])).status).toBe(200);
    expect((await check(cardId, '01')).body).toMatchObject({
      allowed: false,
      reason: 'DISABLED_IN_CARD_SETTINGS',
    });
    expect((await getSettings(sut.api, acme.token, cardId)).body.authorisationTypes).toEqual(
      entries('01- 30+'),
    );
  });

  it('serialises usage-group changes with settings changes of its cards (no deadlock, no error)', async () => {
    const { code: group } = await createUsageGroup(sut.api, acme.token, {
      code: uniqueId('P'),
      name: 'P',
      allowedServiceCodes: ['01', '30'],
    });
    const cards = [
      await provisionCard(sut.api, acme.token, { usageGroup: group }),
      await provisionCard(sut.api, acme.token, { usageGroup: group }),
    ];
    // Group changes alternately drop 30 (stripping its flag from the cards) and add it back, while
    // settings changes of both cards keep setting it.
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 3 === 0
          ? updateUsageGroup((i % 2 ? replica : sut).api, acme.token, group, {
              name: 'P',
              allowedServiceCodes: i % 2 ? ['01', '30'] : ['01'],
            })
          : changeSettings(
              (i % 2 ? replica : sut).api,
              acme,
              cards[i % 2],
              settingsBody(`01${i % 4 ? '+' : '-'} 30+`),
              { 'x-request-id': `${group}-change-${i}` },
            ),
      ),
    );
    // A settings change may meet the group without 30 (422), never a 500.
    expect(answers.map((a) => (a.status === 200 ? 200 : `${a.status} ${a.body.code}`))).toEqual(
      answers.map((a) => (a.status === 200 ? 200 : '422 service_code_not_in_usage_group')),
    );

    // Every card ends in the state of the last change applied to it, through an unbroken history.
    const groupCodes = (await sut.api.get(`/api/v1/usage-groups/${group}`, { token: acme.token })).body
      .allowedServiceCodes;
    const codesOf = (s: { authorisationTypes: AuthorisationEntry[] }) =>
      s.authorisationTypes.map((e) => e.serviceCode);
    for (const [c, cardId] of cards.entries()) {
      const { view, history } = await expectHistoryChain(
        sut.api,
        db,
        acme.token,
        cardId,
        settingsBody('01+ 30+'),
      );
      expect(codesOf(view)).toEqual(groupCodes);
      const requested = [0, 1, 2, 3].map((i) => settingsBody(`01${i ? '+' : '-'} 30+`));
      const recorded = history.filter((h: { cause: string }) => h.cause === 'SETTINGS_CHANGE');
      const followedGroup = history.filter((h: { cause: string }) => h.cause !== 'SETTINGS_CHANGE');
      for (const entry of recorded) expect(requested).toContainEqual(entry.current);
      for (const entry of followedGroup)
        expect([['01'], ['01', '30']]).toContainEqual(codesOf(entry.current));
      // Each settings change answered 200 is in the card's history, as requested, unless it repeated
      // the settings in force; and every change the history holds was one of them.
      const answered = new Map(
        answers.flatMap((a, i) =>
          i % 3 !== 0 && i % 2 === c && a.status === 200
            ? [[`${group}-change-${i}`, settingsBody(`01${i % 4 ? '+' : '-'} 30+`)] as const]
            : [],
        ),
      );
      expect(new Set(recorded.map((h: { requestId: string }) => h.requestId)).size).toBe(recorded.length);
      for (const entry of recorded) expect(entry.current).toEqual(answered.get(entry.requestId));
      const inForceAtSomePoint = [
        settingsBody('01+ 30+'),
        ...history.map((h: { current: unknown }) => h.current),
      ];
      const recordedIds = recorded.map((h: { requestId: string }) => h.requestId);
      const repeats = [...answered].filter(([id]) => !recordedIds.includes(id));
      for (const [, requested] of repeats) expect(inForceAtSomePoint).toContainEqual(requested);
    }
  });
});
