/**
 * Values made from a key, each made once and kept: at most `max` of them, all let go at once when
 * full. A replica's working set (the secrets of the endpoints it delivers to) fits well below it.
 */
export class KeptValues<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly max: number) {}

  get(key: string, make: (key: string) => V): V {
    const known = this.values.get(key);
    if (known !== undefined) return known;
    const value = make(key);
    if (this.values.size >= this.max) this.values.clear();
    this.values.set(key, value);
    return value;
  }
}
