import { cookieValue as sut, sessionCookie } from './portal-cookie';

describe('cookieValue', () => {
  it('finds the named cookie among others, trimmed', () => {
    expect(sut('a=1; fincore_portal=abc ;b=2', 'fincore_portal')).toBe('abc');
    expect(sut('fincore_portal=abc', 'fincore_portal')).toBe('abc');
  });
  it('answers undefined without the cookie, for a prefix of its name or without a header', () => {
    expect(sut('x_fincore_portal=abc; fincore_portalx=1', 'fincore_portal')).toBeUndefined();
    expect(sut(undefined, 'fincore_portal')).toBeUndefined();
    expect(sut(['fincore_portal=abc'], 'fincore_portal')).toBeUndefined();
  });
});

describe('sessionCookie', () => {
  it('is HttpOnly and SameSite=Strict, and Secure only over https', () => {
    expect(sessionCookie('v', 60, false)).toBe(
      'fincore_portal=v; Path=/; Max-Age=60; HttpOnly; SameSite=Strict',
    );
    expect(sessionCookie('v', 60, true)).toMatch(/; SameSite=Strict; Secure$/);
  });
});
