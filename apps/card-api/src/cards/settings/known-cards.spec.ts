import { aCard, aUsageGroup } from '@test/support/fixtures/card-context';
import { KnownCards } from './known-cards';

describe('KnownCards', () => {
  const known = (cardId: string, settingsVersion = 1) => ({
    card: aCard({ cardId, settingsVersion }),
    group: aUsageGroup(),
  });

  it('answers the card last remembered, per tenant and card id', () => {
    const sut = new KnownCards(10);
    const card = known('A');
    sut.remember(card);
    expect(sut.get(card.card.tenantId, 'A')).toBe(card);
    expect(sut.get('another-tenant', 'A')).toBeUndefined();
  });

  it('keeps a later version over an earlier one remembered after it', () => {
    const sut = new KnownCards(10);
    const later = known('A', 3);
    sut.remember(later);
    sut.remember(known('A', 2));
    expect(sut.get(later.card.tenantId, 'A')).toBe(later);
  });

  it('lets the oldest remembered go beyond its size', () => {
    const sut = new KnownCards(2);
    for (const id of ['A', 'B', 'C']) sut.remember(known(id));
    const tenantId = aCard().tenantId;
    expect(['A', 'B', 'C'].map((id) => sut.get(tenantId, id) !== undefined)).toEqual([false, true, true]);
  });

  it('keeps a card as a settings update leaves it', () => {
    const sut = new KnownCards(10);
    const before = known('A', 1);
    const update = { ...before.card, settingsVersion: 2, renewable: false };
    sut.rememberChanged(before, update);
    expect(sut.get(before.card.tenantId, 'A')).toMatchObject({
      card: { cardId: 'A', settingsVersion: 2, renewable: false },
      group: before.group,
    });
  });

  it('forgets a card', () => {
    const sut = new KnownCards(10);
    sut.remember(known('A'));
    sut.forget(aCard().tenantId, 'A');
    expect(sut.get(aCard().tenantId, 'A')).toBeUndefined();
  });
});
