import { peakOf, stackedBars as sut } from './chart';

const hour = (succeeded: number, failed = 0, pending = 0) => ({ hour: 'h', succeeded, failed, pending });

describe('stackedBars', () => {
  it('scales to the busiest hour and stacks failed above succeeded', () => {
    const bars = sut([hour(1, 1), hour(4)], 20, 100);
    expect(bars).toEqual([
      { outcome: 'succeeded', x: 0, y: 75, width: 9, height: 25 },
      { outcome: 'failed', x: 0, y: 50, width: 9, height: 25 },
      { outcome: 'succeeded', x: 10, y: 0, width: 9, height: 100 },
    ]);
  });
  it('draws nothing for empty hours, and survives no hours at all', () => {
    expect(sut([hour(0), hour(0)], 20, 100)).toEqual([]);
    expect(sut([], 20, 100)).toEqual([]);
  });
});

describe('peakOf', () => {
  it('is the largest hourly total', () => {
    expect(peakOf([hour(1, 2, 3), hour(5)])).toBe(6);
    expect(peakOf([])).toBe(0);
  });
});
