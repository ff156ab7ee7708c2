import { hrefOf, parseRoute as sut, sectionOf } from './route';

const id = '0b9f3c52-4a6e-4c38-9f3e-1f4c8e7d2a10';

describe('parseRoute', () => {
  it('reads every page back from its href', () => {
    for (const route of [
      { page: 'endpoints' },
      { page: 'endpoint', id },
      { page: 'deliveries' },
      { page: 'deliveries', endpointId: id },
      { page: 'delivery', id },
      { page: 'event-types' },
      { page: 'configuration' },
    ] as const)
      expect(sut(hrefOf(route))).toEqual(route);
  });
  it('falls back to the endpoints for anything else', () => {
    expect(sut('')).toEqual({ page: 'endpoints' });
    expect(sut('#/endpoints/not-an-id')).toEqual({ page: 'endpoints' });
    expect(sut('#/deliveries?endpointId=x')).toEqual({ page: 'deliveries' });
  });
});

describe('sectionOf', () => {
  it('puts one endpoint or delivery under its list', () => {
    expect(sectionOf({ page: 'endpoint', id })).toBe('endpoints');
    expect(sectionOf({ page: 'delivery', id })).toBe('deliveries');
    expect(sectionOf({ page: 'configuration' })).toBe('configuration');
  });
});
