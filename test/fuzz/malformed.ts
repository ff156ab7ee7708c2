import fc from 'fast-check';
import type { Operation, RequestParts } from './openapi-arbitraries';
import { toRaw, utf8AsLatin1 } from './openapi-arbitraries';

/** A malformed variant of a valid-shaped request, named after what was broken. */
export interface Malformed {
  mutation: string;
  parts: RequestParts;
  /** The valid-shaped request it was made from. */
  original: RequestParts;
}

type Mutation = (parts: RequestParts, pick: number) => RequestParts;
type Json = any;

const RAW = '\u0000fuzz-raw\u0000';
const NUMBER_TOKENS = [
  '1e309',
  '-1e309',
  '-0',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '1e-400',
  '0.1e1',
];
const NOT_NUMBERS = [
  '1e5',
  'NaN',
  'Infinity',
  '0x1A',
  ' 1',
  '1,50',
  '１２',
  '-0',
  '1e309',
  '',
  '.',
  '9'.repeat(400),
];
const WRONG_TYPES: Json[] = [0, -1, 1.5, 'text', true, null, [], {}, [1, 'a'], { nested: true }];
const QUERY_VALUES = [
  '2147483648',
  '9007199254740993',
  '-0',
  '1e309',
  '-1',
  '0',
  'abc',
  '1.5',
  '',
  'NaN',
  '0x10',
];
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** Opaque cursors are often base64url of a position; these are positions no database holds. */
const CURSOR_POSITIONS = [
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '0',
  '99999',
  '2026-02-30',
].map((at) => Buffer.from(`${at}|${NIL_UUID}`).toString('base64url'));
const CURSORS = ['x', 'eyJ9', 'eyJpZCI6MX0', '!!!', 'AAAA'.repeat(40), '%00', '-1', ...CURSOR_POSITIONS];
const BAD_PATH_VALUES = ['%', '%zz', '%c3%28', '%ff%fe', '%00', 'a%2Fb', '..', '%2e%2e', '%ed%a0%80', 'a b'];
const RAW_BYTES = ['\x80\xff', 'Ã¤', '\xc3\x28', '\xed\xa0\x80', '\x7f', '"<>'];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/xml',
  'application/json, text/plain',
  'application/problem+json',
  '',
];
const ENCODINGS = ['gzip', 'br', 'deflate', 'x-unknown', 'gzip, gzip', 'identity, gzip'];
const TENANT_CODES = [
  '',
  ' ',
  'OTHER-TENANT',
  'A'.repeat(5000),
  utf8AsLatin1('Ünïcødé'),
  '\x01',
  '../x',
  '%00',
];
const LANGUAGES = [
  '*',
  'xx',
  'de;q=abc',
  'en;q=2',
  ',,,;;;',
  'a'.repeat(8000),
  utf8AsLatin1('ü-ß'),
  'de-DE-x-€',
];
const TOKENS = ['', 'x', 'fc_'.padEnd(64, 'A'), '\x7f', 'a'.repeat(5000)];

/** Every key path of a JSON value (objects and arrays, four levels deep), the root first. */
function keyPaths(value: Json, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(prefix);
  if (prefix.length < 4 && value && typeof value === 'object')
    for (const key of Array.isArray(value) ? value.keys() : Object.keys(value))
      keyPaths(value[key as never], [...prefix, key], out);
  return out;
}

/** A copy of the body with the value at one of its key paths (picked by `pick`) replaced or removed. */
function atPath(body: Json, pick: number, change: (v: Json) => Json | undefined, leavesOnly = false): Json {
  const paths = keyPaths(body).filter((p) => p.length > 0 || !leavesOnly);
  return setAt(body, paths[pick % paths.length] ?? [], change);
}

/**
 * Like `atPath`, at one of the body's free-text strings where it has any: bytes a pattern, format
 * or enum refuses anyway would not show whether the check for them is there.
 */
function atText(op: Operation, body: Json, pick: number, change: (v: Json) => Json): Json {
  const paths = op.freeTextIn(body);
  return paths.length ? setAt(body, of(paths, pick), change) : atPath(body, pick, change);
}

/**
 * The body as JSON text with the bytes given (written as is: an escape, or bytes that are no UTF-8)
 * appended to one of its free-text strings, which otherwise stays valid: only the bytes are wrong.
 */
function inText(op: Operation, parts: RequestParts, pick: number, bytes: Buffer): RequestParts {
  let original: Json;
  const marked = atText(op, parts.body, pick, (v) => {
    original = v;
    return RAW;
  });
  const kept = typeof original === 'string' ? JSON.stringify(original).slice(1, -1) : 'a';
  const [before, after] = JSON.stringify(marked).split(JSON.stringify(RAW));
  return {
    ...parts,
    body: Buffer.concat([Buffer.from(`${before}"${kept}`), bytes, Buffer.from(`"${after ?? ''}`)]),
  };
}

function setAt(body: Json, path: Array<string | number>, change: (v: Json) => Json | undefined): Json {
  if (!path.length) return change(body);
  const copy = structuredClone(body);
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  const last = path[path.length - 1];
  const value = change(parent[last]);
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = value;
  return copy;
}

/** JSON text of a body in which the RAW marker string stands for raw JSON text. */
const withRaw = (body: Json, raw: string) =>
  Buffer.from(JSON.stringify(body).replace(JSON.stringify(RAW), raw), 'utf8');

const setHeader = (parts: RequestParts, name: string, value: string | undefined): RequestParts => ({
  ...parts,
  headers: [
    ...parts.headers.filter(([n]) => n.toLowerCase() !== name),
    ...(value === undefined ? [] : [[name, value] as [string, string]]),
  ],
});

const of = <T>(list: readonly T[], pick: number) => list[pick % list.length];

const bodyMutations = (op: Operation): Record<string, Mutation> => ({
  'wrong type': (p, n) => ({ ...p, body: atPath(p.body, n, () => of(WRONG_TYPES, n >> 4)) }),
  'missing field': (p, n) => ({ ...p, body: atPath(p.body, n, () => undefined, true) }),
  'extra field': (p, n) => ({
    ...p,
    body: atPath(p.body, n, (v) =>
      v && typeof v === 'object' && !Array.isArray(v) ? { ...v, zzExtra: 1 } : v,
    ),
  }),
  'huge string': (p, n) => ({ ...p, body: atPath(p.body, n, () => 'x'.repeat(n % 2 ? 200_000 : 2_000_000)) }),
  'huge array': (p, n) => ({ ...p, body: atPath(p.body, n, () => new Array(100_000).fill(n % 2 ? 'A' : 1)) }),
  'deep nesting': (p, n) => {
    const depth = n % 2 ? 5_000 : 200_000;
    return {
      ...p,
      body: withRaw(
        atPath(p.body, n, () => RAW),
        '['.repeat(depth) + ']'.repeat(depth),
      ),
    };
  },
  'NUL in string': (p, n) => ({
    ...p,
    body: atText(op, p.body, n, (v) => `${typeof v === 'string' ? v : 'a'}\u0000b`),
  }),
  'lone surrogate': (p, n) => inText(op, p, n, Buffer.from('\\ud800b')),
  'invalid UTF-8': (p, n) =>
    inText(
      op,
      p,
      n,
      Buffer.from(of(['\xff', '\xc3\x28', '\xed\xa0\x80', '\xf8\x88\x80\x80\x80'], n >> 3), 'latin1'),
    ),
  'special number': (p, n) => ({
    ...p,
    body: withRaw(
      atPath(p.body, n, () => RAW),
      of(NUMBER_TOKENS, n >> 3),
    ),
  }),
  'decimal string that is no number': (p, n) => ({
    ...p,
    body: atPath(p.body, n, () => of(NOT_NUMBERS, n >> 3), true),
  }),
  'duplicate key': (p, n) => {
    const keys = p.body && typeof p.body === 'object' && !Array.isArray(p.body) ? Object.keys(p.body) : [];
    if (!keys.length) return { ...p, body: Buffer.from('{"a":1,"a":2}') };
    const key = JSON.stringify(of(keys, n));
    const wrong = JSON.stringify(of(WRONG_TYPES, n >> 2));
    const text = JSON.stringify(p.body);
    const dup = n % 2 ? `{${key}:${wrong},${text.slice(1)}` : `${text.slice(0, -1)},${key}:${wrong}}`;
    return { ...p, body: Buffer.from(dup) };
  },
  'not an object': (p, n) => ({
    ...p,
    body: Buffer.from(of(['[]', 'null', '"x"', '1', '', '{', '{"a":', '\ufeff{}'], n)),
  }),
});

const anyMutations: Record<string, Mutation> = {
  'wrong content type': (p, n) => setHeader(p, 'content-type', of(CONTENT_TYPES, n) || undefined),
  'content encoding': (p, n) => setHeader(p, 'content-encoding', of(ENCODINGS, n)),
  'bad x-tenant-code': (p, n) => setHeader(p, 'x-tenant-code', of(TENANT_CODES, n)),
  'bad Accept-Language': (p, n) => setHeader(p, 'accept-language', of(LANGUAGES, n)),
  'bad token': (p, n) => setHeader(p, 'x-auth-token', n % 6 === 5 ? undefined : of(TOKENS, n)),
  'huge header': (p, n) => setHeader(p, 'x-padding', 'p'.repeat(n % 2 ? 20_000 : 70_000)),
  'over-long URL': (p, n) => {
    const target = toRaw(p).target;
    return {
      ...p,
      rawTarget: `${target}${target.includes('?') ? '&' : '?'}pad=${'x'.repeat(n % 2 ? 20_000 : 100_000)}`,
    };
  },
  'unknown query parameter': (p) => ({ ...p, query: [...p.query, ['zzExtra', '1']] }),
  'bad percent-encoding in query': (p, n) => ({
    ...p,
    rawTarget: `${toRaw(p).target.split('?')[0]}?limit=${of(BAD_PATH_VALUES, n)}`,
  }),
};

/** Mutations of the documented query parameters `names`. */
const queryMutations = (names: string[]): Record<string, Mutation> => ({
  'bad query value': (p, n) => {
    const name = of(names, n);
    const value = name === 'cursor' ? of(CURSORS, n >> 2) : of(QUERY_VALUES, n >> 2);
    return { ...p, query: [...p.query.filter(([k]) => k !== name), [name, value]] };
  },
  'duplicate query parameter': (p, n) => {
    const name = of(names, n);
    const value = p.query.find(([k]) => k === name)?.[1] ?? '1';
    return { ...p, query: [...p.query, [name, value], [name, of(QUERY_VALUES, n >> 2)]] };
  },
});

const pathMutations: Record<string, Mutation> = {
  'bad percent-encoding in path': (p, n) => rawPathValue(p, n, of(BAD_PATH_VALUES, n >> 2)),
  'raw bytes in path': (p, n) => rawPathValue(p, n, of(RAW_BYTES, n >> 2)),
  'over-long path parameter': (p, n) => rawPathValue(p, n, 'A'.repeat(of([65, 300, 10_000], n >> 2))),
};

/** The path with one parameter (picked by `pick`) written as is, not percent-encoded. */
function rawPathValue(parts: RequestParts, pick: number, value: string): RequestParts {
  const names = Object.keys(parts.pathValues);
  const name = of(names, pick);
  const marker = 'FUZZMARKER';
  const target = toRaw({ ...parts, pathValues: { ...parts.pathValues, [name]: marker } }).target;
  return { ...parts, rawTarget: target.replace(marker, value) };
}

/** The mutations that apply to an operation: body, path and query ones where it has such parts. */
export function mutationsFor(op: Operation): Record<string, Mutation> {
  return {
    ...anyMutations,
    ...(op.body ? bodyMutations(op) : {}),
    ...(op.pathParams.length ? pathMutations : {}),
    ...(op.queryParams.length ? queryMutations(op.queryParams.map((q) => q.name)) : {}),
  };
}

/** Malformed variants of the valid-shaped requests of an operation, by one mutation kind. */
export function malformedOfKind(
  op: Operation,
  valid: fc.Arbitrary<RequestParts>,
  mutation: string,
): fc.Arbitrary<Malformed> {
  const mutate = mutationsFor(op)[mutation];
  return fc
    .tuple(valid, fc.nat({ max: 1 << 16 }))
    .map(([parts, pick]) => ({ mutation, parts: mutate(parts, pick), original: parts }));
}

/** Malformed variants of the valid-shaped requests of an operation, of any kind. */
export function malformedOf(op: Operation, valid: fc.Arbitrary<RequestParts>): fc.Arbitrary<Malformed> {
  return fc
    .constantFrom(...Object.keys(mutationsFor(op)))
    .chain((mutation) => malformedOfKind(op, valid, mutation));
}
