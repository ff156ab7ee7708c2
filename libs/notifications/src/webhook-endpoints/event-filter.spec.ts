import {
  checkEventFilter,
  EventFilter,
  FilteredEvent,
  filterAccepts,
  MAX_FILTER_DEPTH,
} from './event-filter';

const personUpdated: FilteredEvent = {
  type: 'PERSON_UPDATED',
  subject: { type: 'person', id: 'P-1' },
  data: {
    personId: 'P-1',
    changedFields: ['credentials.status'],
    credentials: { status: 'INVALIDATED', invalidatedAt: null },
    person: { personId: 'P-1', email: null },
  },
};

describe('filterAccepts', () => {
  const sut = (filter: EventFilter, event = personUpdated) => filterAccepts(filter, event);

  it('compares a path with equals and in', () => {
    expect(sut({ path: 'data.credentials.status', equals: 'INVALIDATED' })).toBe(true);
    expect(sut({ path: 'data.credentials.status', equals: 'ACTIVE' })).toBe(false);
    expect(sut({ path: 'subject.type', in: ['card', 'person'] })).toBe(true);
    expect(sut({ path: 'type', in: ['CARD_SETTINGS_CHANGED'] })).toBe(false);
  });

  it('tells null from missing', () => {
    expect(sut({ path: 'data.person.email', equals: null })).toBe(true);
    expect(sut({ path: 'data.person.phone', equals: null })).toBe(false);
    expect(sut({ path: 'data.person.email', exists: true })).toBe(true);
    expect(sut({ path: 'data.person.phone', exists: false })).toBe(true);
  });

  it('looks for a value in an array with contains, and nowhere else', () => {
    expect(sut({ path: 'data.changedFields', contains: 'credentials.status' })).toBe(true);
    expect(sut({ path: 'data.changedFields', contains: 'email' })).toBe(false);
    expect(sut({ path: 'data.personId', contains: 'P' })).toBe(false);
    expect(sut({ path: 'data.changedFields.0', equals: 'credentials.status' })).toBe(true);
  });

  it('combines with all and any', () => {
    const changed = { path: 'data.changedFields', contains: 'credentials.status' };
    expect(sut({ all: [changed, { path: 'type', equals: 'PERSON_UPDATED' }] })).toBe(true);
    expect(sut({ all: [changed, { path: 'type', equals: 'CARD_SETTINGS_CHANGED' }] })).toBe(false);
    expect(sut({ any: [{ path: 'subject.id', equals: 'P-2' }, { all: [changed] }] })).toBe(true);
  });
});

describe('checkEventFilter', () => {
  const sut = checkEventFilter;

  it('accepts conditions and combinations', () => {
    expect(sut({ path: 'data.changedFields', contains: 'credentials.status' })).toBeUndefined();
    expect(
      sut({ any: [{ path: 'subject', exists: true }, { all: [{ path: 'type', in: ['A', 1, null] }] }] }),
    ).toBeUndefined();
  });

  it('names a path outside the envelope', () => {
    expect(
      sut({
        all: [
          { path: 'type', equals: 'A' },
          { path: 'tenantCode', equals: 'X' },
        ],
      }),
    ).toEqual({
      at: 'all.1.path',
      message: expect.stringContaining('"tenantCode" is not a filter path'),
    });
    expect(sut({ path: 'data..x', exists: true })?.at).toBe('path');
  });

  it('names an unknown operator, and a condition with none or two', () => {
    expect(sut({ any: [{ path: 'type', startsWith: 'PERSON' }] })).toEqual({
      at: 'any.0.startsWith',
      message: expect.stringContaining('unknown operator "startsWith"'),
    });
    expect(sut({ path: 'type' })?.message).toContain('exactly one operator');
    expect(sut({ path: 'type', equals: 'A', exists: true })?.message).toContain('exactly one operator');
  });

  it('refuses values that are not scalars, and empty or oversized combinations', () => {
    expect(sut({ path: 'type', equals: { a: 1 } })?.at).toBe('equals');
    expect(sut({ path: 'type', in: ['a', ['b']] })?.at).toBe('in.1');
    expect(sut({ path: 'type', in: [] })?.at).toBe('in');
    expect(sut({ path: 'type', exists: 'yes' })?.at).toBe('exists');
    expect(sut({ path: 'type', equals: 'a\u0000b' })?.at).toBe('equals');
    expect(sut({ path: 'type', contains: '\ud800' })?.at).toBe('contains');
    expect(sut({ all: [] })?.at).toBe('all');
    expect(sut([])?.message).toContain('must be an object');
    const conditions = Array.from({ length: 33 }, () => ({ path: 'type', equals: 'A' }));
    expect(sut({ any: conditions })?.message).toContain('too many conditions');
  });

  it('bounds the nesting without recursing into it', () => {
    const nest = (levels: number): unknown =>
      Array.from({ length: levels }).reduce((inner) => ({ all: [inner] }), { path: 'type', exists: true });
    expect(sut(nest(MAX_FILTER_DEPTH - 1))).toBeUndefined();
    expect(sut(nest(MAX_FILTER_DEPTH))?.message).toContain('nests too deep');
    expect(sut(nest(100_000))?.message).toContain('nests too deep');
  });
});
