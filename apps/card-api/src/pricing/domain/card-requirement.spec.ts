import { quoteNeedsCard } from './card-requirement';

describe('quoteNeedsCard', () => {
  it.each(['CURRENT', 'PREPAID'])('asks for the card on %s accounts', (type) =>
    expect(quoteNeedsCard({ type, cardTypes: [] })).toBe(true),
  );

  it('prices a CREDIT account without a card unless it carries a debit, prepaid or gift card', () => {
    expect(quoteNeedsCard({ type: 'CREDIT', cardTypes: ['CREDIT'] })).toBe(false);
    expect(quoteNeedsCard({ type: 'CREDIT', cardTypes: [] })).toBe(false);
    for (const cardType of ['DEBIT', 'PREPAID', 'GIFT'])
      expect(quoteNeedsCard({ type: 'CREDIT', cardTypes: ['CREDIT', cardType] })).toBe(true);
  });
});
