import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueueKeys } from 'bullmq';
import Redis from 'ioredis';
import { QueueName, queuePrefix } from '@fincore/events';
import { loadConfig, MetricsService } from '@fincore/platform';
import { EventWakeups, WaitSlot } from './event-wakeups';

/** Against the real Redis on localhost: the queue's event stream under a prefix of its own, written as BullMQ writes it. */
describe('EventWakeups', () => {
  const config = loadConfig({
    ...process.env,
    QUEUE_PREFIX: `wakeups-spec-${randomUUID()}`,
    EVENT_STREAM_MAX_WAITERS: '3',
  });
  const stream = new QueueKeys(queuePrefix(config.QUEUE_PREFIX)).toKey(QueueName.DomainEvents, 'events');
  let redis: Redis;
  let sut: EventWakeups;
  const held: WaitSlot[] = [];

  const add = (event = 'added') => redis.xadd(stream, '*', 'event', event, 'jobId', randomUUID());
  const hold = (mark: string) => {
    const slot = sut.hold(mark);
    if (!slot) throw new Error('no slot');
    held.push(slot);
    return slot;
  };
  /** 'woken' if the slot's wait of `ms` ends early, 'asleep' if it runs its length. */
  const waits = async (slot: WaitSlot, ms: number) => {
    const started = performance.now();
    await slot.next(ms);
    return performance.now() - started < ms * 0.9 ? 'woken' : 'asleep';
  };
  /** Until the running stream read has passed entry `id`. */
  const untilRead = async (id: string) => {
    for (const end = Date.now() + 5_000; (await sut.mark()) !== id && Date.now() < end;) await sleep(10);
    expect(await sut.mark()).toBe(id);
  };
  const untilNotListening = async () => {
    // A stream read blocks until an entry comes: one ends it at once.
    await add('completed');
    for (const end = Date.now() + 5_000; sut.listening && Date.now() < end;) await sleep(10);
    return sut.listening;
  };

  beforeAll(() => {
    redis = new Redis(config.REDIS_URL);
  });
  beforeEach(() => {
    sut = new EventWakeups(config, new MetricsService());
  });
  afterEach(async () => {
    held.splice(0).forEach((slot) => slot.release());
    sut.beforeApplicationShutdown();
    sut.onApplicationShutdown();
  });
  afterAll(async () => {
    await redis.del(stream);
    await redis.quit();
  });

  it('reads the stream only while a read waits', async () => {
    expect(sut.listening).toBe(false);
    await add();
    expect(sut.listening).toBe(false);
    const slot = hold(await sut.mark());
    expect(sut.listening).toBe(true);
    slot.release();
    expect(await untilNotListening()).toBe(false);
  });

  it('wakes a read for an event added between its mark and its wait', async () => {
    const mark = await sut.mark();
    await add();
    expect(await waits(hold(mark), 5_000)).toBe('woken');
  });

  it('wakes a read marked before entries the running stream read has already passed', async () => {
    hold(await sut.mark());
    const mark = await sut.mark();
    await untilRead((await add())!);
    expect(await waits(hold(mark), 5_000)).toBe('woken');
  });

  it('wakes every waiting read once per added job, and only for added jobs', async () => {
    const slots = [hold(await sut.mark()), hold(await sut.mark())];
    await untilRead((await add('completed'))!);
    expect(await waits(slots[0], 300)).toBe('asleep');
    const woken = Promise.all(slots.map((s) => waits(s, 5_000)));
    await add();
    expect(await woken).toEqual(['woken', 'woken']);
    expect(await waits(slots[1], 300)).toBe('asleep');
  });

  it('keeps a wake-up that comes while the read is busy for its next wait', async () => {
    const slot = hold(await sut.mark());
    await untilRead((await add())!);
    expect(await waits(slot, 5_000)).toBe('woken');
    expect(await waits(slot, 300)).toBe('asleep');
  });

  it(`holds at most EVENT_STREAM_MAX_WAITERS slots`, async () => {
    const mark = await sut.mark();
    for (let i = 0; i < 3; i++) hold(mark);
    expect(sut.hold(mark)).toBeUndefined();
    held.pop()!.release();
    expect(sut.hold(mark)).toBeDefined();
  });

  it('answers every waiting read false at shutdown, and later ones at once', async () => {
    const slot = hold(await sut.mark());
    const waiting = slot.next(5_000);
    sut.beforeApplicationShutdown();
    expect(await waiting).toBe(false);
    expect(await slot.next(5_000)).toBe(false);
  });
});
