import { backlogPriority, priorityPerTenant } from './priority';

describe('backlogPriority', () => {
  it('gives a tenant without backlog the highest priority', () => {
    expect(backlogPriority(0)).toBe(1);
  });

  it('moves one step back per doubling of the backlog', () => {
    const sut = [1, 3, 7, 15, 1023, 5000].map(backlogPriority);
    expect(sut).toEqual([2, 3, 4, 5, 11, 13]);
  });

  it('never answers 0, which BullMQ would run before everything', () => {
    for (const backlog of [-1, Number.NaN, 0.2]) expect(backlogPriority(backlog)).toBeGreaterThan(0);
  });

  it('stays within BullMQ range for any backlog', () => {
    expect(backlogPriority(Number.MAX_SAFE_INTEGER)).toBeLessThanOrEqual(2 ** 21);
  });
});

describe('priorityPerTenant', () => {
  it("gives a lone event the highest priority and a tenant's burst a lower one", () => {
    const sut = priorityPerTenant(['A', 'A', 'A', 'B', 'A']);
    expect(sut).toEqual([3, 3, 3, 1, 3]);
  });

  it('answers nothing for nothing', () => {
    expect(priorityPerTenant([])).toEqual([]);
  });
});
