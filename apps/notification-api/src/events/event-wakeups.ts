import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { QueueKeys } from 'bullmq';
import { Gauge } from 'prom-client';
import { QueueName, queuePrefix } from '@fincore/events';
import {
  APP_CONFIG,
  AppConfig,
  createRedisClient,
  logConnectionErrors,
  MetricsService,
  QUEUE_SOCKET_TIMEOUT_MS,
  RedisClient,
} from '@fincore/platform';
import { isAfter, STREAM_END, STREAM_START } from './domain/stream-position';

/** A held long-poll slot: waits for the next wake-up, released once the poll answers. */
export interface WaitSlot {
  /**
   * Resolves at the next wake-up (also one that came since the slot was marked or last woke) or
   * after `ms`, whichever comes first: true, or false once the process shuts down, when the poll
   * should answer what it has at once.
   */
  next(ms: number): Promise<boolean>;
  release(): void;
}

/** Longest block of one stream read: the reading stops this long at most after the last slot is gone. */
const BLOCK_MS = 5_000;
/** Entries taken per stream read; a busy queue adds several per job. */
const ENTRIES_PER_READ = 500;
/** A mark that Redis does not give within this long is left unknown: the read still waits, woken by later events. */
const MARK_TIMEOUT_MS = 1_000;
/** Pause after a failed stream read before the next, while reads still wait. */
const RETRY_MS = 1_000;

class Slot {
  private woken = false;
  private sleeper?: (awake: boolean) => void;

  constructor(readonly mark: string) {}

  wake(awake = true): void {
    if (this.sleeper) this.sleeper(awake);
    else this.woken = true;
  }

  next(ms: number, closing: boolean): Promise<boolean> {
    if (closing) return Promise.resolve(false);
    if (this.woken) {
      this.woken = false;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => this.sleeper?.(true), ms);
      this.sleeper = (awake) => {
        clearTimeout(timer);
        this.sleeper = undefined;
        resolve(awake);
      };
    });
  }
}

/**
 * Wakes the long-polls of the event stream when an event is enqueued. Every committed event is:
 * the APIs add its `domain-events` job after commit, the outbox relay adds the jobs of the rest
 * (those its LISTEN/NOTIFY hears of). Redis announces each added job on the queue's event stream,
 * read here on one connection per process, and only while a read waits: with no long-poll the API
 * spends nothing on the stream however many events pass. A read marks the stream's end before it
 * looks at the outbox, so an event added between that look and its wait still wakes it. At most
 * EVENT_STREAM_MAX_WAITERS slots.
 */
@Injectable()
export class EventWakeups implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(EventWakeups.name);
  private readonly slots = new Set<Slot>();
  private readonly streamKey: string;
  private closing = false;
  private redis?: RedisClient;
  /** Set while the stream is read, with the last position read. */
  private reading?: { position: string };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MetricsService) metrics: MetricsService,
  ) {
    this.streamKey = new QueueKeys(queuePrefix(config.QUEUE_PREFIX)).toKey(QueueName.DomainEvents, 'events');
    const waiting: Gauge = new Gauge({
      name: 'event_stream_waiting_reads',
      help: 'Long-polls of GET /api/v1/events waiting for an event; at EVENT_STREAM_MAX_WAITERS more answer 503',
      registers: [metrics.registry],
      collect: () => waiting.set(this.slots.size),
    });
  }

  /** True while the stream is read, i.e. while some read waits (or for one block after the last). */
  get listening(): boolean {
    return this.reading !== undefined;
  }

  /**
   * Where the stream stands before a read looks at the outbox: a slot held from this mark wakes for
   * every event added after it. Without an answer from Redis, the end of the stream at the wait.
   */
  async mark(): Promise<string> {
    if (this.reading) return this.reading.position;
    let timer: NodeJS.Timeout | undefined;
    const lastEntry = this.connection()
      .xrevrange(this.streamKey, '+', '-', 'COUNT', 1)
      .then(([last]) => last?.[0] ?? STREAM_START);
    const timeout = new Promise<string>(
      (resolve) => (timer = setTimeout(resolve, MARK_TIMEOUT_MS, STREAM_END)),
    );
    try {
      return await Promise.race([lastEntry.catch(() => STREAM_END), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A slot woken by events added after `mark`, or undefined when EVENT_STREAM_MAX_WAITERS are held already. */
  hold(mark: string): WaitSlot | undefined {
    if (this.slots.size >= this.config.EVENT_STREAM_MAX_WAITERS) return undefined;
    const slot = new Slot(mark);
    this.slots.add(slot);
    // Entries up to the reading's position were read before this slot existed: one may be its event.
    if (this.reading && isAfter(this.reading.position, mark)) slot.wake();
    if (!this.reading && !this.closing) this.read(mark);
    return {
      next: (ms) => slot.next(ms, this.closing),
      release: () => this.slots.delete(slot),
    };
  }

  /** Before the HTTP server drains, which would otherwise wait out every long-poll. */
  beforeApplicationShutdown(): void {
    this.closing = true;
    for (const slot of this.slots) slot.wake(false);
  }

  onApplicationShutdown(): void {
    // A blocked read holds the connection: a QUIT would wait for it.
    this.redis?.disconnect();
  }

  private connection(): RedisClient {
    this.redis ??= logConnectionErrors(
      createRedisClient(this.config, {
        maxRetriesPerRequest: null,
        socketTimeout: QUEUE_SOCKET_TIMEOUT_MS,
        lazyConnect: true,
      }),
      'Event stream wake-ups interrupted',
      this.logger,
    );
    return this.redis;
  }

  /** Reads the stream from `from` for as long as a slot is held, waking the slots an added job concerns. */
  private read(from: string): void {
    const reading = { position: from };
    this.reading = reading;
    void (async () => {
      while (this.slots.size && !this.closing) {
        try {
          const answer = await this.connection().xread(
            'COUNT',
            ENTRIES_PER_READ,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            this.streamKey,
            reading.position,
          );
          let added: string | undefined;
          for (const [id, fields] of answer?.[0]?.[1] ?? []) {
            reading.position = id;
            if (fields[0] === 'event' && fields[1] === 'added') added = id;
          }
          if (added) for (const slot of this.slots) if (isAfter(added, slot.mark)) slot.wake();
        } catch (error) {
          if (this.closing) break;
          this.logger.warn(`Event stream read failed: ${(error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
      this.reading = undefined;
    })();
  }
}
