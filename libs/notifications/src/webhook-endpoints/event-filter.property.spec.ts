import fc from 'fast-check';
import { checkEventFilter, EventFilter, FilteredEvent, filterAccepts } from './event-filter';

/**
 * The filter against a reference built another way: the envelope flattened into every path it
 * has, each with its value, and each operator read off that table.
 */
function reference(filter: EventFilter, event: FilteredEvent): boolean {
  const table = new Map<string, unknown>();
  const flatten = (value: unknown, path: string) => {
    table.set(path, value);
    if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) flatten(v, `${path}.${k}`);
  };
  for (const [k, v] of Object.entries(event)) flatten(v, k);
  const evaluate = (f: EventFilter): boolean => {
    if ('all' in f) return f.all.map(evaluate).indexOf(false) === -1;
    if ('any' in f) return f.any.map(evaluate).indexOf(true) !== -1;
    const present = table.has(f.path);
    const value = table.get(f.path);
    if ('exists' in f) return present === f.exists;
    if ('equals' in f) return present && value === f.equals;
    if ('in' in f) return present && f.in.some((v) => v === value);
    return Array.isArray(value) && value.includes(f.contains);
  };
  return evaluate(filter);
}

const key = fc.constantFrom('a', 'b', 'status', '0', '1');
const scalar = fc.oneof(
  fc.constantFrom('x', 'y', 'credentials.status'),
  fc.integer({ min: -2, max: 2 }),
  fc.boolean(),
  fc.constant(null),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 3 }),
})).value;
const envelope: fc.Arbitrary<FilteredEvent> = fc.record({
  type: fc.constantFrom('PERSON_UPDATED', 'CARD_SETTINGS_CHANGED'),
  subject: fc.option(fc.record({ type: fc.constantFrom('person', 'card'), id: fc.constantFrom('x', 'y') }), {
    nil: null,
  }),
  data: json,
});
const path = fc.oneof(
  fc.constantFrom('type', 'subject', 'subject.type', 'subject.id', 'data'),
  fc.array(key, { minLength: 1, maxLength: 3 }).map((keys) => `data.${keys.join('.')}`),
);
const filter: fc.Arbitrary<EventFilter> = fc.letrec<{ filter: EventFilter }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    fc.record({ path, equals: scalar }),
    fc.record({ path, in: fc.array(scalar, { minLength: 1, maxLength: 3 }) }),
    fc.record({ path, exists: fc.boolean() }),
    fc.record({ path, contains: scalar }),
    fc.record({ all: fc.array(tie('filter'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ any: fc.array(tie('filter'), { minLength: 1, maxLength: 3 }) }),
  ),
})).filter;

describe('filterAccepts, property', () => {
  it('gives the verdict of the reference for every valid filter and envelope', () => {
    fc.assert(
      fc.property(filter, envelope, (f, event) => {
        fc.pre(checkEventFilter(f) === undefined);
        expect(filterAccepts(f, event)).toBe(reference(f, event));
      }),
      { numRuns: 2000 },
    );
  });
});
