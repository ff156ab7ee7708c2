import fc from 'fast-check';
import { PASSWORD_MIN_LENGTH, passwordPolicyViolations } from './password-policy';

describe('passwordPolicyViolations', () => {
  const sut = passwordPolicyViolations;
  const context = { username: 'demo.user', personId: 'demo-person-1' };
  const codes = (password: string) => sut(password, context).map((v) => v.code);

  it('accepts a long passphrase without identifiers', () => {
    expect(sut('correct horse battery staple', context)).toEqual([]);
  });

  it('refuses a password shorter than the minimum, counting characters rather than bytes', () => {
    expect(codes('Sh0rt-pass!')).toEqual(['too_short']);
    // 12 characters of which several take more than one UTF-16 unit or byte
    expect(codes('pässwört-😀x1')).toEqual([]);
    expect([...'pässwört-😀x1'].length).toBe(PASSWORD_MIN_LENGTH);
  });

  it('refuses a password made of too few distinct characters', () => {
    expect(codes('aaaaaaaaaaaaaaaa')).toEqual(['too_repetitive']);
    expect(codes('abababababababab')).toEqual(['too_repetitive']);
  });

  it('refuses a password containing the username or the person id, in any case', () => {
    expect(codes('my-DEMO.USER-secret')).toEqual(['contains_username']);
    expect(codes('xx demo-person-1 yy')).toEqual(['contains_personid']);
  });

  it('reports every violation with the field password', () => {
    const violations = sut('demo.user', context);
    expect(violations.map((v) => v.code)).toEqual(['too_short', 'contains_username']);
    expect(violations.every((v) => v.field === 'password' && v.message.length > 0)).toBe(true);
  });

  it('never refuses a password of 12 or more distinct ASCII letters unrelated to the identifiers', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...'ABCFGHJKLMNQRSTVWXYZ'.split('')), {
          minLength: 12,
          maxLength: 20,
        }),
        (chars) => {
          expect(sut(chars.join(''), context)).toEqual([]);
        },
      ),
    );
  });
});
