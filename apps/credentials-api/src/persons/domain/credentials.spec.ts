import {
  canReplaceCredentials,
  invalidateCredentials,
  isSameUsername,
  needsRehash,
  normalizePassword,
  replacementChangedFields,
  usernameKey,
} from './credentials';

describe('invalidateCredentials', () => {
  const sut = invalidateCredentials;
  const now = new Date('2025-11-21T10:00:00Z');

  it('invalidates active credentials and records when', () => {
    expect(sut({ status: 'ACTIVE', invalidatedAt: null }, now)).toEqual({
      changed: true,
      state: { status: 'INVALIDATED', invalidatedAt: now },
      changedFields: ['credentials.status', 'credentials.invalidatedAt'],
    });
  });

  it('changes nothing for invalidated credentials and keeps the first invalidation time', () => {
    const first = new Date('2025-11-20T08:00:00Z');
    expect(sut({ status: 'INVALIDATED', invalidatedAt: first }, now)).toEqual({
      changed: false,
      state: { status: 'INVALIDATED', invalidatedAt: first },
    });
  });
});

describe('canReplaceCredentials', () => {
  const sut = canReplaceCredentials;

  it('allows new credentials only once the old ones are invalidated', () => {
    expect(sut({ status: 'INVALIDATED', invalidatedAt: new Date() })).toBe(true);
    expect(sut({ status: 'ACTIVE', invalidatedAt: null })).toBe(false);
  });
});

describe('replacementChangedFields', () => {
  const sut = replacementChangedFields;

  it('names the username only when it changed', () => {
    expect(sut(false)).toEqual(['credentials.status', 'credentials.invalidatedAt', 'credentials.password']);
    expect(sut(true)).toContain('credentials.username');
  });
});

describe('usernameKey and isSameUsername', () => {
  it('compare usernames regardless of case and Unicode compatibility forms', () => {
    expect(usernameKey('Demo.User')).toBe('demo.user');
    expect(usernameKey('ｄｅｍｏ')).toBe('demo');
    const sut = isSameUsername;
    expect(sut(usernameKey('demo.user'), 'DEMO.user')).toBe(true);
    expect(sut(usernameKey('demo.user'), 'demo.user2')).toBe(false);
    expect(sut(usernameKey('demo.user'), '')).toBe(false);
  });
});

describe('normalizePassword', () => {
  const sut = normalizePassword;

  it('gives composed and decomposed forms of the same text one representation', () => {
    expect(sut('Gru\u0308n-Passwort')).toBe(sut('Grün-Passwort'));
  });
});

describe('needsRehash', () => {
  const sut = needsRehash;
  const ARGON2ID = 2;
  const wanted = { memoryCost: 19456, timeCost: 2 };

  it('keeps a hash made with the configured cost, or a stronger one', () => {
    expect(sut({ algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2 }, wanted, ARGON2ID)).toBe(false);
    expect(sut({ algorithm: ARGON2ID, memoryCost: 65536, timeCost: 3 }, wanted, ARGON2ID)).toBe(false);
  });

  it('re-hashes a weaker hash or another algorithm', () => {
    expect(sut({ algorithm: ARGON2ID, memoryCost: 1024, timeCost: 2 }, wanted, ARGON2ID)).toBe(true);
    expect(sut({ algorithm: ARGON2ID, memoryCost: 19456, timeCost: 1 }, wanted, ARGON2ID)).toBe(true);
    expect(sut({ algorithm: 1, memoryCost: 19456, timeCost: 2 }, wanted, ARGON2ID)).toBe(true);
  });
});
