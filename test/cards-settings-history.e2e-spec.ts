import {
  changeSettings,
  getHistory,
  provisionCard,
  settingsBody,
  startCardApiWithCardTenant,
} from './support/card-settings';
import { expectOutboxEvents } from './support/outbox';
import { RunningApp, TestStack, TenantFixture } from './support/stack';

describe('card-api: card settings history and CARD_SETTINGS_CHANGED', () => {
  let stack: TestStack, sut: RunningApp, acme: TenantFixture;
  beforeAll(async () => ({ stack, sut, acme } = await startCardApiWithCardTenant()));
  afterAll(() => stack.close());

  it('records the change in the history and emits CARD_SETTINGS_CHANGED in the outbox', async () => {
    const cardId = await provisionCard(sut.api, acme.token);
    const r = await changeSettings(sut.api, acme, cardId, settingsBody('00+ 0A+ 0C+ 01- 20+ 30+'), {
      'x-request-id': `req-${cardId}`,
    });
    expect(r.status).toBe(200);

    const history = await getHistory(sut.api, acme.token, cardId);
    expect(history.status).toBe(200);
    expect(history.body.items).toHaveLength(1);
    expect(history.body.items[0]).toMatchObject({
      version: 2,
      changedFields: ['authorisationTypes.01'],
      cause: 'SETTINGS_CHANGE',
      previous: settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+'),
      current: settingsBody('00+ 0A+ 0C+ 01- 20+ 30+'),
      tokenId: acme.tokenEntity.id,
      requestId: `req-${cardId}`,
    });
    expect(history.body.nextBeforeVersion).toBeNull();

    await expectOutboxEvents(await stack.db(), { type: 'CARD_SETTINGS_CHANGED', data: { cardId } }, [
      {
        tenantCode: acme.tenant.code,
        correlationId: `req-${cardId}`,
        data: {
          cardId,
          changedFields: ['authorisationTypes.01'],
          cause: 'SETTINGS_CHANGE',
          previous: settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+'),
          current: settingsBody('00+ 0A+ 0C+ 01- 20+ 30+'),
        },
      },
    ]);
  });

  it('pages the history newest first', async () => {
    const cardId = await provisionCard(sut.api, acme.token);
    for (const spec of ['00-', '00+', '00-'])
      await changeSettings(sut.api, acme, cardId, settingsBody(`${spec} 0A+ 0C+ 01+ 20+ 30+`));
    const first = await getHistory(sut.api, acme.token, cardId, '?limit=2');
    expect(first.body.items.map((h: { version: number }) => h.version)).toEqual([4, 3]);
    expect(first.body.nextBeforeVersion).toBe(3);
    const second = await getHistory(sut.api, acme.token, cardId, '?limit=2&beforeVersion=3');
    expect(second.body.items.map((h: { version: number }) => h.version)).toEqual([2]);
    expect(second.body.nextBeforeVersion).toBeNull();
    expect((await getHistory(sut.api, acme.token, cardId, '?limit=0')).status).toBe(400);
  });
});
