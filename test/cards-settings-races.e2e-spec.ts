import { DataSource } from 'typeorm';
import { changeCardStatus } from './support/builders/cards';
import {
  cardFootprint,
  changeSettings,
  checkAuthorisation,
  expectHistoryChain,
  provisionCard,
  settingsBody,
  settingsOf,
  startCardApiReplicasWithCardTenant,
} from './support/card-settings';
import { RunningApp, TestStack, TenantFixture } from './support/stack';
import { answerOf, problemAnswer } from './support/problems';

describe('card-api: a settings change racing a block or a close of the card', () => {
  let stack: TestStack, sut: RunningApp, replica: RunningApp, db: DataSource, acme: TenantFixture;
  beforeAll(async () => {
    ({ stack, sut, replica, db, acme } = await startCardApiReplicasWithCardTenant());
  });
  afterAll(() => stack.close());

  const initial = settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+');
  const change = { ...settingsBody('00+ 0A- 0C+ 01- 20+ 30+'), renewable: false };
  const CARDS = 8;

  /** Per card: the change on one replica and the status change on the other, sent together. */
  async function race(status: 'BLOCKED' | 'CLOSED') {
    const cards = await Promise.all(Array.from({ length: CARDS }, () => provisionCard(sut.api, acme.token)));
    return Promise.all(
      cards.map(async (cardId, i) => {
        const [a, b] = i % 2 ? [sut, replica] : [replica, sut];
        const [changed, statusChanged] = await Promise.all([
          changeSettings(a.api, acme, cardId, change),
          changeCardStatus(b.api, acme.token, cardId, status),
        ]);
        return { cardId, changed, statusChanged };
      }),
    );
  }

  it('block: both succeed, the card ends blocked with the new settings, one history entry and one event', async () => {
    for (const { cardId, changed, statusChanged } of await race('BLOCKED')) {
      expect([changed.status, statusChanged.status, statusChanged.body.status]).toEqual([
        200,
        200,
        'BLOCKED',
      ]);
      const { view, history } = await expectHistoryChain(sut.api, db, acme.token, cardId, initial);
      expect(view).toMatchObject({ status: 'BLOCKED', version: 2, ...change });
      expect(history.map((h: { current: unknown }) => h.current)).toEqual([change]);
      expect((await checkAuthorisation(sut.api, acme.token, cardId, '00')).body.reason).toBe('CARD_BLOCKED');
    }
  });

  it('close: the change either applied before the close or is refused with 409 and left no trace', async () => {
    for (const { cardId, changed, statusChanged } of await race('CLOSED')) {
      expect([statusChanged.status, statusChanged.body.status]).toEqual([200, 'CLOSED']);
      const { view, history } = await expectHistoryChain(sut.api, db, acme.token, cardId, initial);
      expect(view.status).toBe('CLOSED');
      const { history: recorded, events } = await cardFootprint(db, cardId);
      const applied = {
        answer: { status: 200, contentType: expect.stringMatching(/^application\/json/), body: change },
        settings: change,
        version: 2,
        history: [change],
        footprint: { recorded: 1, events: 1 },
      };
      const refused = {
        answer: problemAnswer(changed, 409, 'card_closed'),
        settings: initial,
        version: 1,
        history: [],
        footprint: { recorded: 0, events: 0 },
      };
      expect({
        answer: answerOf(changed),
        settings: settingsOf(view),
        version: view.version,
        history: history.map((h: { current: unknown }) => h.current),
        footprint: { recorded, events },
      }).toEqual(changed.status === 200 ? applied : refused);
      expect((await checkAuthorisation(sut.api, acme.token, cardId, '00')).body.reason).toBe('CARD_CLOSED');
    }
  });
});
