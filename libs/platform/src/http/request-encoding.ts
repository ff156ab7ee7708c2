import { isUtf8 } from 'node:buffer';
import type { ProblemException } from '../errors/problem';
import { fieldPath } from '../validation/validation';
import { invalidEncoding, unsupportedCharset, unsupportedContentEncoding } from './request-encoding.problems';

// A body is taken as the caller sent it or refused: never decoded with replacement characters,
// in another charset or without its content coding, which would store (and compare, for passwords)
// something other than what the caller meant.

type Headers = Record<string, string | string[] | undefined>;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A Content-Encoding other than identity: refused, the answer saying which coding is taken. */
export function contentCodingProblem(headers: Headers): ProblemException | undefined {
  const header = headers['content-encoding'];
  if (header === undefined) return undefined;
  const codings = String(header)
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean);
  if (codings.every((c) => c === 'identity')) return undefined;
  return unsupportedContentEncoding();
}

/** A charset parameter of the content type other than UTF-8 (the only one JSON is exchanged in). */
export function charsetProblem(headers: Headers): ProblemException | undefined {
  const parameters = String(headers['content-type'] ?? '')
    .split(';')
    .slice(1);
  for (const parameter of parameters) {
    const [name, ...value] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = value
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return unsupportedCharset();
  }
  return undefined;
}

/** Bytes that are not UTF-8: refused, naming the field they are in. */
export function invalidUtf8Problem(body: Buffer): ProblemException | undefined {
  if (isUtf8(body)) return undefined;
  return invalidEncoding(fieldAtByte(body, firstInvalidUtf8(body)));
}

/** What is wrong with how a JSON body is encoded, checked before it is decoded. */
export function encodingProblem(headers: Headers, body: Buffer): ProblemException | undefined {
  return contentCodingProblem(headers) ?? charsetProblem(headers) ?? invalidUtf8Problem(body);
}

/**
 * The offset of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or -1.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    const trailing =
      lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead <= 0xf4 ? 3 : 0;
    if (!trailing || lead < 0xc2) return i;
    // the second byte's range rules out overlong forms, surrogates and code points past U+10FFFF
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    if (i + trailing >= bytes.length || bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (let k = 2; k <= trailing; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += trailing + 1;
  }
  return -1;
}

interface Frame {
  key: string | number;
  /** An object between its members, where the next string is a key. */
  awaitingKey: boolean;
}

/**
 * The field (as errors[] names it: `rules[1].labels[0]`) whose key or value holds the byte at
 * `offset` of a JSON text, found by one scan of the text before it; '' for the body itself.
 */
export function fieldAtByte(bytes: Uint8Array, offset: number): string {
  const stack: Frame[] = [];
  for (let i = 0; i < offset; i++) {
    const byte = bytes[i];
    const top = stack.at(-1);
    if (byte === QUOTE) {
      let end = i + 1;
      while (end < bytes.length && bytes[end] !== QUOTE) end += bytes[end] === BACKSLASH ? 2 : 1;
      if (offset <= end) break;
      if (top?.awaitingKey) top.key = keyOf(bytes.subarray(i, end + 1));
      i = end;
    } else if (byte === 0x7b) stack.push({ key: '', awaitingKey: true });
    else if (byte === 0x5b) stack.push({ key: 0, awaitingKey: false });
    else if (byte === 0x7d || byte === 0x5d) stack.pop();
    else if (byte === 0x3a && top) top.awaitingKey = false;
    else if (byte === 0x2c && top) {
      if (typeof top.key === 'number') top.key++;
      else top.awaitingKey = true;
    }
  }
  // in a key, or between members: the object is the field
  const top = stack.at(-1);
  const frames = top?.awaitingKey ? stack.slice(0, -1) : stack;
  return fieldPath(frames.map((f) => f.key));
}

function keyOf(quoted: Uint8Array): string {
  const text = Buffer.from(quoted).toString('utf8');
  try {
    return String(JSON.parse(text));
  } catch {
    return text.slice(1, -1);
  }
}
