import { hrefOf, parseRoute as sut, sectionOf, withFilter } from './route';

const id = '0b9f3c52-4a6e-4c38-9f3e-1f4c8e7d2a10';
const since = '2026-11-27T08:30:00.000Z';
const until = '2026-11-27T09:30:00.000Z';

describe('parseRoute', () => {
  it('reads every page back from its href', () => {
    for (const route of [
      { page: 'endpoints' },
      { page: 'endpoint', id },
      { page: 'deliveries' },
      { page: 'deliveries', endpointId: id },
      { page: 'deliveries', eventId: id },
      { page: 'deliveries', status: 'FAILED', type: 'PERSON_UPDATED', endpointId: id, since, until },
      { page: 'delivery', id },
      { page: 'event-types' },
      { page: 'configuration' },
    ] as const)
      expect(sut(hrefOf(route))).toEqual(route);
  });
  it('falls back to the endpoints for anything else', () => {
    expect(sut('')).toEqual({ page: 'endpoints' });
    expect(sut('#/endpoints/not-an-id')).toEqual({ page: 'endpoints' });
  });
  it('leaves out a filter of the wrong shape and keeps the others', () => {
    expect(
      sut(`#/deliveries?endpointId=x&eventId=whsec&status=LOST&type=a%20b&since=yesterday&until=${until}`),
    ).toEqual({
      page: 'deliveries',
      until,
    });
    expect(sut('#/deliveries?since=2026-02-30T00:00:00.000Z&status=FAILED')).toEqual({
      page: 'deliveries',
      status: 'FAILED',
    });
  });
});

describe('hrefOf', () => {
  it('puts only the filters set into the URL, the instants encoded', () => {
    expect(hrefOf({ page: 'deliveries', status: 'PENDING', since })).toBe(
      '#/deliveries?status=PENDING&since=2026-11-27T08%3A30%3A00.000Z',
    );
    expect(hrefOf({ page: 'deliveries' })).toBe('#/deliveries');
  });
});

describe('withFilter', () => {
  it('changes one filter, and an empty value drops it', () => {
    const filter = { status: 'FAILED', endpointId: id, since } as const;
    expect(withFilter(filter, { since: until, type: 'PERSON_UPDATED' })).toEqual({
      status: 'FAILED',
      endpointId: id,
      type: 'PERSON_UPDATED',
      since: until,
    });
    expect(withFilter(filter, { endpointId: '', since: undefined })).toEqual({ status: 'FAILED' });
  });
});

describe('sectionOf', () => {
  it('puts one endpoint or delivery under its list', () => {
    expect(sectionOf({ page: 'endpoint', id })).toBe('endpoints');
    expect(sectionOf({ page: 'delivery', id })).toBe('deliveries');
    expect(sectionOf({ page: 'configuration' })).toBe('configuration');
  });
});
