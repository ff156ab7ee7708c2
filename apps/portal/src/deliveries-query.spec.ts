import { deliveriesQueryOf as sut } from './deliveries-query';

describe('deliveriesQueryOf', () => {
  it("asks for a page with every filter set, the event type under the API's name", () => {
    const filter = {
      status: 'FAILED',
      type: 'PERSON_UPDATED',
      endpointId: '0b9f3c52-4a6e-4c38-9f3e-1f4c8e7d2a10',
      eventId: '5f1d7a2e-9c3b-4e8a-b1d6-7e2c4a9f0b31',
      since: '2026-11-27T08:30:00.000Z',
      until: '2026-11-27T09:30:00.000Z',
    } as const;
    expect(sut(filter, 'next-page')).toEqual({
      limit: '20',
      status: 'FAILED',
      notificationTypeCode: 'PERSON_UPDATED',
      endpointId: filter.endpointId,
      eventId: filter.eventId,
      since: filter.since,
      until: filter.until,
      cursor: 'next-page',
    });
  });
  it('sends nothing for a filter not set', () => {
    expect(sut({})).toEqual({ limit: '20' });
  });
});
