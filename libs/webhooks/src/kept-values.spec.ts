import { KeptValues } from './kept-values';

describe('KeptValues', () => {
  it('makes a value once per key and answers it again', () => {
    const sut = new KeptValues<string>(10);
    const make = jest.fn((key: string) => key.toUpperCase());

    expect(sut.get('a', make)).toBe('A');
    expect(sut.get('a', make)).toBe('A');
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('lets every value go once it holds the most it may, and keeps none a failed make', () => {
    const sut = new KeptValues<string>(2);
    const make = jest.fn((key: string) => key);
    sut.get('a', make);
    sut.get('b', make);
    sut.get('c', make); // full: a and b let go
    expect(() =>
      sut.get('d', () => {
        throw new Error('unusable');
      }),
    ).toThrow('unusable');

    sut.get('c', make);
    sut.get('a', make);
    expect(make.mock.calls.map(([key]) => key)).toEqual(['a', 'b', 'c', 'a']);
  });
});
