import { isErased, takenUsernameKeys, usernameTombstone } from './erasure';

describe('usernameTombstone', () => {
  it('keeps no trace of the username in clear, and fits the username column', () => {
    const sut = usernameTombstone('tenant-1', 'ada.lovelace');
    expect(sut).toMatch(/^erased:[0-9a-f]{64}$/);
    expect(sut).not.toContain('ada');
    expect(sut.length).toBeLessThanOrEqual(256);
  });

  it('is the same for the same username of a tenant, and differs between tenants and usernames', () => {
    const sut = usernameTombstone('tenant-1', 'ada');
    expect(usernameTombstone('tenant-1', 'ada')).toBe(sut);
    expect(usernameTombstone('tenant-2', 'ada')).not.toBe(sut);
    expect(usernameTombstone('tenant-1', 'ada2')).not.toBe(sut);
  });
});

describe('takenUsernameKeys', () => {
  it('names the key itself and its tombstone', () => {
    const sut = takenUsernameKeys('tenant-1', 'ada');
    expect(sut).toEqual(['ada', usernameTombstone('tenant-1', 'ada')]);
  });
});

describe('isErased', () => {
  it('tells an erased person by the time of their erasure', () => {
    expect(isErased({ erasedAt: new Date() })).toBe(true);
    expect(isErased({ erasedAt: null })).toBe(false);
  });
});
