import { subjectOf } from './subject';

describe('subjectOf', () => {
  it('a person update is about the person', () => {
    const sut = subjectOf('PERSON_UPDATED', { personId: 'p-1', changedFields: ['lastName'] });
    expect(sut).toEqual({ type: 'person', id: 'p-1' });
  });

  it('a card settings change is about the card, whatever caused it', () => {
    const settings = { authorisationTypes: [], renewable: true, xpaysAllowed: false };
    const sut = subjectOf('CARD_SETTINGS_CHANGED', {
      cardId: 'c-9',
      changedFields: ['renewable'],
      cause: 'USAGE_GROUP_CHANGE',
      previous: settings,
      current: { ...settings, renewable: false },
    });
    expect(sut).toEqual({ type: 'card', id: 'c-9' });
  });
});
