import {
  charsetProblem,
  contentCodingProblem,
  fieldAtByte,
  firstInvalidUtf8,
  invalidUtf8Problem,
} from './request-encoding';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe(firstInvalidUtf8.name, () => {
  const sut = firstInvalidUtf8;

  it('finds nothing in well-formed text, four-byte characters included', () => {
    expect(sut(Buffer.from('Jürgen ✓ 𝄞 \uFFFD'))).toBe(-1);
  });

  it.each([
    ['a lone continuation byte', [0x80]],
    ['a byte UTF-8 never uses', [0xff]],
    ['an overlong two-byte form', [0xc0, 0xaf]],
    ['an overlong three-byte form', [0xe0, 0x80, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a five-byte form', [0xf8, 0x88, 0x80, 0x80, 0x80]],
    ['a sequence cut short by ASCII', [0xc3, 0x28]],
    ['a sequence cut short by the end', [0xe2, 0x9c]],
    ['Latin-1 text', [0xe4, 0xf6, 0xfc]],
  ])('points at the start of %s', (_, invalid) => {
    expect(sut(bytes('ab', invalid, 'c'))).toBe(2);
  });
});

describe(fieldAtByte.name, () => {
  const sut = (text: string) =>
    fieldAtByte(Buffer.from(text.replace('#', '\xff'), 'latin1'), text.indexOf('#'));

  it('names the field, its index in arrays and its parents', () => {
    expect(sut('{"firstName":"a#"}')).toBe('firstName');
    expect(sut('{"a":1,"rules":[{"x":"y"},{"labels":["ok","b#"]}]}')).toBe('rules[1].labels[1]');
    expect(sut('{"a":{"b":"\\"}{,[","c":"#"}}')).toBe('a.c');
  });

  it('names the object when the bytes are in a key, and the body at the top', () => {
    expect(sut('{"a":{"k#":1}}')).toBe('a');
    expect(sut('"#"')).toBe('');
    expect(sut('{"k#":1}')).toBe('');
  });
});

describe(invalidUtf8Problem.name, () => {
  it('refuses with 400 invalid_encoding naming the field, and passes UTF-8', () => {
    const sut = invalidUtf8Problem(bytes('{"password":"', [0xe4, 0xf6, 0xfc], '"}'));
    expect(sut).toMatchObject({ code: 'invalid_encoding', status: 400 });
    expect(sut?.errors).toEqual([{ field: 'password', message: 'must be valid UTF-8' }]);
    expect(invalidUtf8Problem(Buffer.from('{"password":"äöü"}'))).toBeUndefined();
  });
});

describe(charsetProblem.name, () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'application/json; charset=utf8',
  ])('takes %s', (type) => expect(charsetProblem({ 'content-type': type })).toBeUndefined());

  it.each([
    'application/json; charset=iso-8859-1',
    'application/json; charset=latin1',
    'application/json; charset=',
  ])('refuses %s with 415 unsupported_charset', (type) =>
    expect(charsetProblem({ 'content-type': type })).toMatchObject({
      code: 'unsupported_charset',
      status: 415,
    }),
  );
});

describe(contentCodingProblem.name, () => {
  it('takes no coding or identity', () => {
    expect(contentCodingProblem({})).toBeUndefined();
    expect(contentCodingProblem({ 'content-encoding': 'Identity' })).toBeUndefined();
  });

  it.each(['gzip', 'br', 'x-unknown', 'identity, gzip'])(
    'refuses "%s" with 415 and Accept-Encoding: identity',
    (coding) => {
      expect(contentCodingProblem({ 'content-encoding': coding })).toMatchObject({
        code: 'unsupported_content_encoding',
        status: 415,
        headers: { 'accept-encoding': 'identity' },
      });
    },
  );
});
