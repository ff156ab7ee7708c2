import {
  boundedInt,
  boundedIntParam,
  decimalString,
  freeText,
  instant,
  INT4_MAX,
  isWellFormedText,
} from './primitives';

const HUGE = 'x'.repeat(5_000_000);

describe('freeText', () => {
  const sut = freeText({ max: 20 });

  it('takes ordinary text, trimmed, including letters outside the BMP', () => {
    expect(sut.parse('  Standard Debit ')).toBe('Standard Debit');
    expect(sut.parse('Ünïcødé 😀 名前')).toBe('Ünïcødé 😀 名前');
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['another C0 control', 'a\u0007b'],
    ['DEL', 'a\u007fb'],
    ['a line break in a single-line text', 'a\nb'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', '\udc00'],
    ['surrogates in the wrong order', '\ude00\ud83d'],
    ['only white space', '   '],
    ['more than the maximum', 'x'.repeat(21)],
    ['a huge string', HUGE],
    ['a number', 12],
    ['null', null],
  ])('refuses %s', (_what, value) => {
    expect(sut.safeParse(value).success).toBe(false);
  });

  it('lets a multiline text hold tabs and line breaks but no other control', () => {
    const multiline = freeText({ max: 50, min: 0, multiline: true });
    expect(multiline.parse('line 1\n\tline 2\r\n')).toBe('line 1\n\tline 2');
    expect(multiline.parse('')).toBe('');
    expect(multiline.safeParse('a\u0000b').success).toBe(false);
    expect(multiline.safeParse('a\u000bb').success).toBe(false);
  });

  it('keeps surrounding white space when asked not to trim', () => {
    expect(freeText({ max: 10, trim: false }).parse(' a ')).toBe(' a ');
  });

  it('says what is wrong', () => {
    const result = sut.safeParse('a\u0000b');
    expect(result.error?.issues.map((i) => i.message)).toEqual(['must not contain control characters']);
  });
});

describe('isWellFormedText', () => {
  it('tells paired surrogates from lone ones', () => {
    expect(isWellFormedText('😀')).toBe(true);
    expect(isWellFormedText('\ud83d')).toBe(false);
    expect(isWellFormedText('\ude00x')).toBe(false);
  });
});

describe('decimalString', () => {
  const sut = decimalString({ integerDigits: 12, fractionDigits: 10 });

  it.each(['0', '12.50', '0.0000000001', '999999999999.9999999999'])('takes %s', (value) => {
    expect(sut.parse(value)).toBe(value);
  });

  it.each([
    ['an exponent', '1e309'],
    ['a small exponent', '1e3'],
    ['a sign', '-0'],
    ['a plus sign', '+1'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['two points', '1.2.3'],
    ['leading white space', ' 1'],
    ['trailing white space', '1 '],
    ['a trailing point', '1.'],
    ['a leading point', '.5'],
    ['hex', '0x10'],
    ['grouping', '1,000'],
    ['the empty string', ''],
    ['too many integer digits', '1'.repeat(13)],
    ['too many fraction digits', `1.${'1'.repeat(11)}`],
    ['NUL', '1\u0000'],
    ['a huge string', '9'.repeat(1_000_000)],
    ['a JSON number', 12.5],
  ])('refuses %s before anything parses it', (_what, value) => {
    const result = sut.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
  });

  it('lets a refinement that parses run only on values of the pattern', () => {
    const positive = decimalString().refine((v) => {
      if (!/^\d/.test(v)) throw new Error(`parsed ${v}`);
      return Number(v) > 0;
    }, 'must be positive');
    expect(positive.safeParse('abc').success).toBe(false);
    expect(positive.safeParse('0').success).toBe(false);
    expect(positive.parse('0.5')).toBe('0.5');
  });
});

describe('boundedInt', () => {
  const sut = boundedInt({ min: 1 });

  it('takes integers up to the int4 maximum', () => {
    expect(sut.parse(1)).toBe(1);
    expect(sut.parse(INT4_MAX)).toBe(INT4_MAX);
  });

  it.each([
    ['2^31', 2 ** 31],
    ['2^53 + 1', 2 ** 53 + 1],
    ['a fraction', 1.5],
    ['zero, under the minimum', 0],
    ['-0', -0],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '1'],
  ])('refuses %s', (_what, value) => {
    expect(sut.safeParse(value).success).toBe(false);
  });

  it('refuses bounds that an int4 column cannot hold', () => {
    expect(() => boundedInt({ max: 2 ** 31 })).toThrow(RangeError);
    expect(() => boundedInt({ min: 5, max: 1 })).toThrow(RangeError);
  });
});

describe('boundedIntParam', () => {
  const sut = boundedIntParam({ min: 1, max: 200 });

  it('turns decimal digits into a number', () => {
    expect(sut.parse('1')).toBe(1);
    expect(sut.parse('200')).toBe(200);
    expect(boundedIntParam().parse(String(INT4_MAX))).toBe(INT4_MAX);
  });

  it.each([
    ['2^31', String(2 ** 31)],
    ['2^53 + 1', String(2 ** 53 + 1)],
    ['above the maximum', '201'],
    ['zero', '0'],
    ['-0', '-0'],
    ['leading white space', ' 1'],
    ['the empty string', ''],
    ['an exponent', '1e2'],
    ['1e309', '1e309'],
    ['hex', '0x10'],
    ['a fraction', '1.5'],
    ['NaN', 'NaN'],
    ['a huge string', '9'.repeat(100_000)],
    ['a repeated parameter', ['1', '2']],
  ])('refuses %s', (_what, value) => {
    expect(sut.safeParse(value).success).toBe(false);
  });

  it('keeps a default for an absent parameter', () => {
    expect(sut.default(50).parse(undefined)).toBe(50);
  });
});

describe('instant', () => {
  const sut = instant();

  it('takes an ISO instant with an offset', () => {
    expect(sut.parse('2026-01-10T12:00:00+01:00')).toBe('2026-01-10T12:00:00+01:00');
  });

  it.each([
    '0000-01-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-01-10',
    'yesterday',
    '2026-01-10T12:00:00Z\u0000',
  ])('refuses %j', (value) => {
    expect(sut.safeParse(value).success).toBe(false);
  });
});
