import { RateBudget, SharedCount } from './rate-budget';

/** The shared counter as Redis keeps it (fixed window from the first hit), on a fake clock. */
class Counter {
  now = 0;
  calls = 0;
  private counts = new Map<string, { count: number; endsAt: number }>();
  readonly count: SharedCount = async (key, hits, windowMs) => {
    this.calls += 1;
    let c = this.counts.get(key);
    if (!c || this.now >= c.endsAt) c = { count: 0, endsAt: this.now + windowMs };
    c.count += hits;
    this.counts.set(key, c);
    return { count: c.count, ttlMs: c.endsAt - this.now };
  };
  total(key: string) {
    return this.counts.get(key)?.count ?? 0;
  }
}

describe('RateBudget', () => {
  let counter: Counter;
  const errors: Error[] = [];
  const budget = (max: number, tolerance: number) =>
    new RateBudget(
      { max, windowSeconds: 60, tolerance, syncMs: 250 },
      counter.count,
      (e) => errors.push(e),
      () => counter.now,
    );

  beforeEach(() => {
    counter = new Counter();
    errors.length = 0;
  });

  it('asks the counter on every hit when the tolerance leaves no batch, and refuses beyond the limit', async () => {
    const [a, b] = [budget(3, 0.01), budget(3, 0.01)];
    const decisions = [];
    for (const sut of [a, b, a, b]) decisions.push(await sut.consume('k'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]).toMatchObject({ count: 4, retryAfter: 60 });
    expect(counter.calls).toBe(4);
  });

  it('counts far from the limit locally and sends the hits in batches', async () => {
    const sut = budget(1000, 0.01);
    for (let i = 0; i < 101; i++) expect((await sut.consume('k')).allowed).toBe(true);
    await sut.flush();
    expect(counter.total('k')).toBe(101);
    // The first hit of the window, then one INCRBY per 10 hits, then the rest.
    expect(counter.calls).toBeLessThanOrEqual(12);
  });

  it('asks the counter near the limit, so replicas together overshoot by at most their batches', async () => {
    const replicas = [budget(100, 0.05), budget(100, 0.05), budget(100, 0.05)];
    let allowed = 0;
    for (let i = 0; i < 300; i++) if ((await replicas[i % 3].consume('k')).allowed) allowed += 1;
    expect(allowed).toBeGreaterThanOrEqual(100);
    expect(allowed).toBeLessThanOrEqual(100 + 3 * 5);
  });

  it('sends hits waiting longer than the sync interval with the next one', async () => {
    const sut = budget(1000, 0.01);
    await sut.consume('k');
    await sut.consume('k');
    counter.now += 300;
    await sut.consume('k');
    await Promise.resolve();
    expect(counter.total('k')).toBe(3);
  });

  it('answers a hit counted locally at once, and asks the counter with a promise', async () => {
    const sut = budget(1000, 0.1);
    const first = sut.consume('k');
    expect(first).toBeInstanceOf(Promise);
    await first;
    expect(sut.consume('k')).toEqual({ allowed: true, count: 2, retryAfter: expect.any(Number) });
  });

  it('starts a new window when the counter said the old one ended', async () => {
    const sut = budget(2, 0);
    await sut.consume('k');
    await sut.consume('k');
    expect((await sut.consume('k')).allowed).toBe(false);
    counter.now += 60_000;
    expect((await sut.consume('k')).allowed).toBe(true);
  });

  it('allows requests and reports the error when the counter fails', async () => {
    const sut = new RateBudget(
      { max: 1, windowSeconds: 60, tolerance: 0, syncMs: 250 },
      () => Promise.reject(new Error('redis down')),
      (e) => errors.push(e),
    );
    await expect(sut.consume('k')).resolves.toMatchObject({ allowed: true });
    expect(errors.map((e) => e.message)).toEqual(['redis down']);
  });
});
