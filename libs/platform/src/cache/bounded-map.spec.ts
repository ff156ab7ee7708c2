import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  describe('set', () => {
    it('drops the oldest key beyond its bound', () => {
      const sut = new BoundedMap<string, number>(2);

      sut.set('a', 1).set('b', 2).set('c', 3);

      expect([...sut]).toEqual([
        ['b', 2],
        ['c', 3],
      ]);
    });

    it('makes a key set again the newest, without dropping another', () => {
      const sut = new BoundedMap<string, number>(2);

      sut.set('a', 1).set('b', 2).set('a', 3).set('c', 4);

      expect([...sut]).toEqual([
        ['a', 3],
        ['c', 4],
      ]);
    });
  });
});
