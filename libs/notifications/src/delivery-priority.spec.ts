import { deliveryPriority } from './delivery-priority';

describe('deliveryPriority', () => {
  it('gives a tenant without backlog the highest priority', () => {
    expect(deliveryPriority(0)).toBe(1);
  });

  it('moves one step back per doubling of the backlog', () => {
    const sut = [1, 3, 7, 15, 1023, 5000].map(deliveryPriority);
    expect(sut).toEqual([2, 3, 4, 5, 11, 13]);
  });

  it('never answers 0, which BullMQ would run before everything', () => {
    for (const backlog of [-1, Number.NaN, 0.2]) expect(deliveryPriority(backlog)).toBeGreaterThan(0);
  });

  it('stays within BullMQ range for any backlog', () => {
    expect(deliveryPriority(Number.MAX_SAFE_INTEGER)).toBeLessThanOrEqual(2 ** 21);
  });
});
