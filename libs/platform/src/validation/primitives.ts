import { z } from 'zod';

// The building blocks of request schemas: each refuses what the layers behind it (PostgreSQL,
// decimal.js, int4 columns) would otherwise fail on as a 500. Every check that a later check
// depends on aborts, so nothing parses a value its pattern refused.

/** Bounds of a PostgreSQL integer (int4) column. */
export const INT4_MAX = 2_147_483_647;
export const INT4_MIN = -2_147_483_648;

/** C0 controls and DEL; PostgreSQL text cannot hold NUL at all. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /^[^\u0000-\u001f\u007f]*$/;
/** The same, but tab, line feed and carriage return are allowed (texts that may span lines). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS_BUT_LINE_BREAKS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when the string is valid Unicode: UTF-8 can encode it without replacing anything. */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

export interface FreeTextOptions {
  /** Most characters (UTF-16 code units, so never more than a varchar(max) column holds). */
  max: number;
  /** Fewest characters after trimming; 1 unless given. */
  min?: number;
  /** Allows tab and line breaks (long descriptions). */
  multiline?: boolean;
  /** Trims surrounding white space before the checks; true unless given. */
  trim?: boolean;
}

/** Text a person writes (names, descriptions): bounded, no control characters, valid Unicode. */
export function freeText({ max, min = 1, multiline = false, trim = true }: FreeTextOptions) {
  const text = trim ? z.string().trim() : z.string();
  return text
    .max(max, { abort: true })
    .min(min)
    .regex(multiline ? CONTROLS_BUT_LINE_BREAKS : CONTROLS, {
      message: multiline
        ? 'must not contain control characters other than tab and line breaks'
        : 'must not contain control characters',
      abort: true,
    })
    .refine(isWellFormedText, { message: 'must be valid Unicode (no unpaired surrogates)', abort: true });
}

export interface DecimalStringOptions {
  /** Most digits before the point; 12 unless given. */
  integerDigits?: number;
  /** Most digits after the point; 10 unless given. */
  fractionDigits?: number;
}

/**
 * A non-negative decimal written as a string ("12.50"): no sign, exponent, white space or
 * grouping. The pattern is checked before anything parses the value.
 */
export function decimalString({ integerDigits = 12, fractionDigits = 10 }: DecimalStringOptions = {}) {
  const pattern = new RegExp(`^\\d{1,${integerDigits}}(\\.\\d{1,${fractionDigits}})?$`);
  return z
    .string()
    .max(integerDigits + 1 + fractionDigits, { abort: true })
    .regex(pattern, {
      message: `a non-negative decimal written as a string, at most ${integerDigits} digits before the point and ${fractionDigits} after, e.g. "12.50"`,
      abort: true,
    })
    .refine((value) => Number.isFinite(Number(value)), { message: 'must be a finite number', abort: true });
}

export interface BoundedIntOptions {
  min?: number;
  /** At most INT4_MAX: integers are stored in int4 columns unless said otherwise. */
  max?: number;
}

function bounds({ min = 0, max = INT4_MAX }: BoundedIntOptions): { min: number; max: number } {
  if (min < INT4_MIN || max > INT4_MAX || min > max) {
    throw new RangeError(`integer bounds ${min}..${max} do not fit an int4 column`);
  }
  return { min, max };
}

/** An integer of a JSON body within bounds that an int4 column holds. */
export function boundedInt(options: BoundedIntOptions = {}) {
  const { min, max } = bounds(options);
  return z.number().int().min(min).max(max);
}

/**
 * An integer sent as text (query string, path): decimal digits only (no white space, exponent,
 * hex or empty string), then the bounds of boundedInt.
 */
export function boundedIntParam(options: BoundedIntOptions = {}) {
  const { min, max } = bounds(options);
  return z
    .string()
    .regex(/^-?\d{1,10}$/, { message: 'an integer written in decimal digits', abort: true })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/**
 * An ISO 8601 instant with a time zone offset that PostgreSQL can store: zod checks the calendar,
 * year 0000 (which PostgreSQL refuses) is refused here.
 */
export function instant() {
  return z.iso
    .datetime({ offset: true })
    .refine((value) => !value.startsWith('0000'), { message: 'the year must be 0001 or later', abort: true });
}
