import { mapInBatches } from './batches';

describe('mapInBatches', () => {
  it('keeps the order of the results and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const sut = await mapInBatches([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 8 - n));
      running--;
      return n * 10;
    });
    expect(sut).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(peak).toBe(3);
  });

  it('returns nothing for nothing', async () => {
    expect(await mapInBatches([], 5, async () => 1)).toEqual([]);
  });
});
