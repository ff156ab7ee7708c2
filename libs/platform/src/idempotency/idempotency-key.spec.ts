import {
  canonicalJson,
  decideOnExistingKey,
  IdempotencyKeyRecord,
  isFinalAnswer,
  keyDigest,
  openAnswerBody,
  parseIdempotencyKey,
  requestFingerprint,
  sealAnswerBody,
} from './idempotency-key';

describe('parseIdempotencyKey', () => {
  const sut = parseIdempotencyKey;

  it('takes a bare key and a Structured Field string alike', () => {
    expect(sut('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(sut('"8e03978e-40d5"')).toBe('8e03978e-40d5');
    expect(sut('"a \\"quoted\\" \\\\ key"')).toBe('a "quoted" \\ key');
    expect(sut('x'.repeat(255))).toBe('x'.repeat(255));
  });

  it.each([
    ['empty', ''],
    ['an empty string field', '""'],
    ['too long', 'x'.repeat(256)],
    ['not ASCII', 'schlüssel'],
    ['a control character', 'a\tb'],
    ['a bad escape in a string field', '"a\\nb"'],
    ['a bare quote inside a string field', '"a"b"'],
  ])('refuses a key that is %s', (_what, header) => {
    expect(sut(header)).toBeUndefined();
  });

  it('refuses the header sent twice', () => {
    expect(sut(['a', 'b'])).toBeUndefined();
  });
});

describe('requestFingerprint', () => {
  const sut = requestFingerprint;
  const key = '8e03978e-40d5-43e8-bc93-6894a57f9324';

  it('is the same for the same JSON document however its members are ordered', () => {
    const a = sut(key, 'POST', '/api/v1/cards', {
      cardId: 'C1',
      settings: { renewable: true, xpaysAllowed: false },
    });
    const b = sut(key, 'post', '/api/v1/cards', {
      settings: { xpaysAllowed: false, renewable: true },
      cardId: 'C1',
    });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs for another body, another path or another method', () => {
    const base = sut(key, 'POST', '/api/v1/cards/C1/status/change', { status: 'BLOCKED' });
    expect(sut(key, 'POST', '/api/v1/cards/C1/status/change', { status: 'ACTIVE' })).not.toBe(base);
    expect(sut(key, 'POST', '/api/v1/cards/C2/status/change', { status: 'BLOCKED' })).not.toBe(base);
    expect(sut(key, 'PUT', '/api/v1/cards/C1/status/change', { status: 'BLOCKED' })).not.toBe(base);
  });

  it('cannot be computed without the key, so a stored fingerprint reveals nothing of a password', () => {
    const body = { personId: 'p1', username: 'u', password: 'guessable' };
    expect(sut('another key', 'POST', '/x', body)).not.toBe(sut(key, 'POST', '/x', body));
  });

  it('keeps the order of arrays, which is part of the request', () => {
    expect(canonicalJson({ a: [2, 1] })).toBe('{"a":[2,1]}');
    expect(canonicalJson(undefined)).toBe('');
  });
});

describe('keyDigest', () => {
  it('keeps the key out of the table', () => {
    expect(keyDigest('my-key')).toMatch(/^[0-9a-f]{64}$/);
    expect(keyDigest('my-key')).not.toContain('my-key');
    expect(keyDigest('my-key')).not.toBe(keyDigest('my-key2'));
  });
});

describe('sealAnswerBody', () => {
  const sut = sealAnswerBody;
  const body = '{"id":"e1","secret":"whsec_c2VjcmV0"}';

  it('seals a body that only the same key opens', () => {
    const sealed = sut('key-1', body);
    expect(sealed).not.toContain('whsec_');
    expect(openAnswerBody('key-1', sealed)).toBe(body);
    expect(() => openAnswerBody('key-2', sealed)).toThrow();
  });
});

describe('decideOnExistingKey', () => {
  const sut = decideOnExistingKey;
  const now = new Date('2026-11-23T10:00:00Z');
  const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":1}' };
  const record = (overrides: Partial<IdempotencyKeyRecord> = {}): IdempotencyKeyRecord => ({
    claimId: 'claim-1',
    fingerprint: 'f1',
    status: 'in_progress',
    lockedUntil: later(30),
    expiresAt: later(86_000),
    answer: null,
    checkedAt: now,
    ...overrides,
  });

  it('replays the answer of the same request', () => {
    expect(sut(record({ status: 'completed', answer }), 'f1')).toEqual({ kind: 'replay', answer });
  });

  it('answers in flight while the same request still holds its claim', () => {
    expect(sut(record(), 'f1')).toEqual({ kind: 'in_flight' });
  });

  it('refuses another request under the key, running or answered', () => {
    expect(sut(record(), 'f2')).toEqual({ kind: 'mismatch' });
    expect(sut(record({ status: 'completed', answer }), 'f2')).toEqual({ kind: 'mismatch' });
    expect(sut(record({ lockedUntil: later(-1) }), 'f2')).toEqual({ kind: 'mismatch' });
  });

  it('takes over a claim abandoned past its lock', () => {
    expect(sut(record({ lockedUntil: now }), 'f1')).toEqual({ kind: 'take_over' });
  });

  it('takes over an expired key for any request', () => {
    const expired = { expiresAt: now, lockedUntil: later(-86_000) };
    expect(sut(record({ ...expired, status: 'completed', answer }), 'f1')).toEqual({ kind: 'take_over' });
    expect(sut(record({ ...expired, status: 'completed', answer }), 'f2')).toEqual({ kind: 'take_over' });
  });
});

describe('isFinalAnswer', () => {
  it.each([200, 201, 204, 400, 404, 409, 422])('keeps %i', (status) => {
    expect(isFinalAnswer(status)).toBe(true);
  });

  it.each([401, 403, 408, 425, 429, 500, 502, 503])('does not keep %i', (status) => {
    expect(isFinalAnswer(status)).toBe(false);
  });
});
