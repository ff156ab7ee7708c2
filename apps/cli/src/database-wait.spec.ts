import {
  DATABASE_WAIT,
  isNotYetReachable,
  nextWait,
  untilReachable,
  WaitClock,
  WaitPolicy,
} from './database-wait';

const policy: WaitPolicy = { firstDelayMs: 500, maxDelayMs: 5_000, totalMs: 60_000 };
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });

/** A clock whose time moves only by the pauses taken, or by `advance` inside an attempt. */
function fakeClock(): WaitClock & { pauses: number[]; advance(ms: number): void } {
  let time = 0;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => time,
    advance: (ms) => (time += ms),
    sleep: async (ms) => {
      pauses.push(ms);
      time += ms;
    },
  };
}

describe('nextWait', () => {
  const sut = nextWait;

  it('doubles from the first delay up to the largest', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => sut(n, 0, policy))).toEqual([
      500, 1000, 2000, 4000, 5000, 5000, 5000,
    ]);
  });

  it('cuts the last pause at the bound and stops once it is spent', () => {
    expect(sut(10, 58_000, policy)).toBe(2000);
    expect(sut(10, 60_000, policy)).toBeUndefined();
    expect(sut(1, 61_000, policy)).toBeUndefined();
  });

  it('waits a minute at most by default, with one line per pause and no more than a few dozen', () => {
    let waited = 0;
    let pauses = 0;
    for (let delay = sut(1, 0); delay !== undefined; delay = sut(pauses + 1, waited)) {
      waited += delay;
      pauses++;
    }
    expect(DATABASE_WAIT.totalMs).toBe(60_000);
    expect(waited).toBe(60_000);
    expect(pauses).toBeLessThan(20);
  });
});

describe('isNotYetReachable', () => {
  const sut = isNotYetReachable;

  it('retries a server that refuses, is not resolvable yet, or is starting up', () => {
    expect(sut(refused())).toBe(true);
    expect(sut(Object.assign(new Error('getaddrinfo EAI_AGAIN postgres'), { code: 'EAI_AGAIN' }))).toBe(true);
    expect(sut(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(sut(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(sut(new AggregateError([refused(), refused()]))).toBe(true);
  });

  it('does not retry what waiting cannot fix', () => {
    expect(sut(Object.assign(new Error('password authentication failed'), { code: '28P01' }))).toBe(false);
    expect(sut(Object.assign(new Error('database "x" does not exist'), { code: '3D000' }))).toBe(false);
    expect(sut(new Error('Unsupported database name "a b"'))).toBe(false);
  });
});

describe('untilReachable', () => {
  const sut = untilReachable;

  it('retries until the server answers, announcing each pause once', async () => {
    const clock = fakeClock();
    const attempt = jest
      .fn<Promise<string>, []>()
      .mockRejectedValueOnce(refused())
      .mockRejectedValueOnce(refused())
      .mockResolvedValue('connected');
    const onWait = jest.fn();

    await expect(sut(attempt, onWait, clock, policy)).resolves.toBe('connected');

    expect(attempt).toHaveBeenCalledTimes(3);
    expect(clock.pauses).toEqual([500, 1000]);
    expect(onWait.mock.calls.map(([, delay]) => delay)).toEqual([500, 1000]);
  });

  it('gives up with the last error when the bound is spent, counting time spent in attempts', async () => {
    const clock = fakeClock();
    const attempt = jest.fn(async () => {
      clock.advance(5_000); // a connect timeout
      throw refused();
    });

    await expect(sut(attempt, jest.fn(), clock, policy)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    expect(clock.now()).toBeLessThanOrEqual(policy.totalMs + 5_000);
    expect(clock.pauses.reduce((a, b) => a + b, 0)).toBeLessThan(policy.totalMs);
  });

  it('throws at once what waiting cannot fix', async () => {
    const clock = fakeClock();
    const denied = Object.assign(new Error('password authentication failed'), { code: '28P01' });
    const onWait = jest.fn();

    await expect(sut(() => Promise.reject(denied), onWait, clock, policy)).rejects.toBe(denied);

    expect(onWait).not.toHaveBeenCalled();
    expect(clock.pauses).toEqual([]);
  });
});
