import { cardStatusTransition } from './card-status';

describe('cardStatusTransition', () => {
  it('lets ACTIVE and BLOCKED switch both ways and close', () => {
    expect(cardStatusTransition('ACTIVE', 'BLOCKED')).toEqual({ kind: 'change' });
    expect(cardStatusTransition('BLOCKED', 'ACTIVE')).toEqual({ kind: 'change' });
    expect(cardStatusTransition('BLOCKED', 'CLOSED')).toEqual({ kind: 'change' });
  });

  it('treats the same status as no change and a closed card as final', () => {
    expect(cardStatusTransition('ACTIVE', 'ACTIVE')).toEqual({ kind: 'unchanged' });
    expect(cardStatusTransition('CLOSED', 'ACTIVE')).toEqual({ kind: 'refused', reason: 'card_closed' });
  });
});
