import { EVENT_CATALOG, EVENT_TYPES } from './catalog';
import { subjectOf } from './subject';

describe('EVENT_CATALOG', () => {
  it.each(EVENT_TYPES)('%s: its example is data its schema accepts, with a subject', (type) => {
    const sut = EVENT_CATALOG[type];
    expect(sut.schema.safeParse(sut.example).error).toBeUndefined();
    expect(subjectOf(type, sut.example as never).id).toEqual(expect.any(String));
  });
});
