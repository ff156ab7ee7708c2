/**
 * An endpoint's payload filter: which events, among the types it takes, it receives. A condition
 * names a path in the webhook envelope (`type`, `subject`, `subject.*`, `data.*`) and one operator;
 * `all` and `any` combine conditions, nested up to MAX_FILTER_DEPTH. Checked when the endpoint is
 * registered (checkEventFilter) and evaluated once per event at fan-out (filterAccepts), as plain
 * functions.
 */

export type FilterScalar = string | number | boolean | null;

export type EventFilter =
  | { path: string; equals: FilterScalar }
  | { path: string; in: FilterScalar[] }
  | { path: string; exists: boolean }
  | { path: string; contains: FilterScalar }
  | { all: EventFilter[] }
  | { any: EventFilter[] };

/** What a filter reads of an event: the envelope's type, subject and data. */
export interface FilteredEvent {
  type: string;
  subject: { type: string; id: string } | null;
  data: unknown;
}

export const FILTER_OPERATORS = ['equals', 'in', 'exists', 'contains'] as const;
export const MAX_FILTER_DEPTH = 4;
export const MAX_FILTER_CONDITIONS = 32;
export const MAX_FILTER_VALUES = 50;
export const MAX_FILTER_STRING = 200;
/** `type`, `subject`, `subject.type|id`, or `data` followed by keys (letters, digits, _ and -; digits index arrays). */
export const FILTER_PATH_PATTERN = '^(type|subject(\\.(type|id))?|data(\\.[A-Za-z0-9_-]{1,64}){0,8})$';
const PATH = new RegExp(FILTER_PATH_PATTERN);

/** Where a filter is wrong (e.g. `all.0.path`) and why; undefined when it is a valid filter. */
export interface FilterProblem {
  at: string;
  message: string;
}

/** Checks a filter as sent; iterative over its nesting, so any input is safe to check. */
export function checkEventFilter(input: unknown): FilterProblem | undefined {
  let conditions = 0;
  const stack: Array<{ node: unknown; at: string[]; depth: number }> = [{ node: input, at: [], depth: 1 }];
  while (stack.length) {
    const { node, at, depth } = stack.pop()!;
    const where = (...more: string[]) => [...at, ...more].join('.');
    if (!isPlainObject(node)) return { at: where(), message: 'must be an object: a condition, all or any' };
    const keys = Object.keys(node);
    if (keys.length === 1 && (keys[0] === 'all' || keys[0] === 'any')) {
      const list = node[keys[0]];
      if (!Array.isArray(list) || list.length === 0)
        return { at: where(keys[0]), message: 'must be a non-empty array of filters' };
      if (depth >= MAX_FILTER_DEPTH)
        return { at: where(keys[0]), message: `nests too deep (at most ${MAX_FILTER_DEPTH} levels)` };
      list.forEach((child, i) =>
        stack.push({ node: child, at: [...at, keys[0], String(i)], depth: depth + 1 }),
      );
      continue;
    }
    if (++conditions > MAX_FILTER_CONDITIONS)
      return { at: where(), message: `too many conditions (at most ${MAX_FILTER_CONDITIONS})` };
    const problem = conditionProblem(node);
    if (problem) return { at: where(...problem.at), message: problem.message };
  }
  return undefined;
}

function conditionProblem(node: Record<string, unknown>): { at: string[]; message: string } | undefined {
  const operators = Object.keys(node).filter((k) => k !== 'path');
  const unknown = operators.find((k) => !(FILTER_OPERATORS as readonly string[]).includes(k));
  if (unknown !== undefined)
    return {
      at: [unknown],
      message: `unknown operator "${unknown}": use ${FILTER_OPERATORS.join(', ')}, or combine with all or any`,
    };
  if (operators.length !== 1)
    return { at: [], message: `needs a path and exactly one operator (${FILTER_OPERATORS.join(', ')})` };
  const path = node.path;
  if (typeof path !== 'string' || !PATH.test(path))
    return {
      at: ['path'],
      message: `"${String(path).slice(0, 80)}" is not a filter path: use type, subject, subject.type, subject.id or data.<key>…`,
    };
  const [operator] = operators;
  const value = node[operator];
  if (operator === 'exists')
    return typeof value === 'boolean' ? undefined : { at: [operator], message: 'must be true or false' };
  if (operator === 'in') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_FILTER_VALUES)
      return { at: [operator], message: `must be an array of 1 to ${MAX_FILTER_VALUES} values` };
    const bad = value.findIndex((v) => !isScalar(v));
    return bad < 0 ? undefined : { at: [operator, String(bad)], message: SCALAR_MESSAGE };
  }
  return isScalar(value) ? undefined : { at: [operator], message: SCALAR_MESSAGE };
}

const SCALAR_MESSAGE = `must be a string (at most ${MAX_FILTER_STRING} characters of valid Unicode, no NUL), a number, true, false or null`;

/** Whether the event passes the filter; a missing path matches nothing but `exists: false`. */
export function filterAccepts(filter: EventFilter, event: FilteredEvent): boolean {
  if ('all' in filter) return filter.all.every((f) => filterAccepts(f, event));
  if ('any' in filter) return filter.any.some((f) => filterAccepts(f, event));
  const value = valueAt(event, filter.path);
  if ('exists' in filter) return (value !== undefined) === filter.exists;
  if ('equals' in filter) return value === filter.equals;
  if ('in' in filter) return filter.in.some((v) => v === value);
  return Array.isArray(value) && value.some((v) => v === filter.contains);
}

/** The value at a dotted path of the event; undefined where the path leads nowhere. */
export function valueAt(event: FilteredEvent, path: string): unknown {
  let value: unknown = event;
  for (const key of path.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(key)) value = value[Number(key)];
    else if (isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, key)) value = value[key];
    else return undefined;
  }
  return value;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isScalar = (v: unknown): v is FilterScalar =>
  v === null ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  (typeof v === 'string' && v.length <= MAX_FILTER_STRING && storable(v));

/** PostgreSQL's jsonb, where the filter is kept, holds no NUL and no unpaired surrogate. */
const storable = (s: string) => !s.includes('\u0000') && !LONE_SURROGATE.test(s);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
