import { applyProfilePatch, changedProfileFields, Profile, profileOf } from './profile';

const current: Profile = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null };

describe('changedProfileFields', () => {
  const sut = changedProfileFields;

  it('names only the fields whose value differs', () => {
    expect(sut(current, { firstName: 'Ada', lastName: 'Byron', phone: '+4930123456' })).toEqual([
      'lastName',
      'phone',
    ]);
  });

  it('treats null as clearing a field, and clearing an empty field as no change', () => {
    expect(sut(current, { email: null })).toEqual(['email']);
    expect(sut(current, { phone: null })).toEqual([]);
  });

  it('finds nothing for an empty patch or one repeating the current values', () => {
    expect(sut(current, {})).toEqual([]);
    expect(sut(current, { ...current })).toEqual([]);
  });
});

describe('applyProfilePatch', () => {
  const sut = applyProfilePatch;

  it('sets, clears and keeps fields without touching the input', () => {
    const before = { ...current };
    expect(sut(current, { lastName: 'Byron', email: null })).toEqual({
      firstName: 'Ada',
      lastName: 'Byron',
      email: null,
      phone: null,
    });
    expect(current).toEqual(before);
  });
});

describe('profileOf', () => {
  const sut = profileOf;

  it('takes the profile fields of a stored person and nothing else', () => {
    const stored = { ...current, id: 'row-1', passwordHash: '$argon2id$secret', username: 'ada' };
    expect(sut(stored)).toEqual(current);
  });
});
