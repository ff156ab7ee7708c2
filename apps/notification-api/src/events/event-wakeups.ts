import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import { Gauge } from 'prom-client';
import { QueueName, queuePrefix } from '@fincore/events';
import {
  APP_CONFIG,
  AppConfig,
  createQueueConnection,
  logConnectionErrors,
  MetricsService,
} from '@fincore/platform';

/** A held long-poll slot: waits for the next wake-up, released once the poll answers. */
export interface WaitSlot {
  /**
   * Resolves at the next wake-up or after `ms`, whichever comes first: true, or false once the
   * process shuts down, when the poll should answer what it has at once.
   */
  next(ms: number): Promise<boolean>;
  release(): void;
}

/**
 * Wakes the long-polls of the event stream when an event is enqueued. Every committed event is:
 * the APIs add its `domain-events` job after commit, the outbox relay adds the jobs of the rest
 * (those its LISTEN/NOTIFY hears of). Redis announces each added job on the queue's event stream,
 * read here with one blocking connection per process. At most EVENT_STREAM_MAX_WAITERS slots.
 */
@Injectable()
export class EventWakeups
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger(EventWakeups.name);
  private readonly sleepers = new Set<() => void>();
  private held = 0;
  private closing = false;
  private events?: QueueEvents;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MetricsService) metrics: MetricsService,
  ) {
    const waiting: Gauge = new Gauge({
      name: 'event_stream_waiting_reads',
      help: 'Long-polls of GET /api/v1/events waiting for an event; at EVENT_STREAM_MAX_WAITERS more answer 503',
      registers: [metrics.registry],
      collect: () => waiting.set(this.held),
    });
  }

  onApplicationBootstrap(): void {
    this.events = new QueueEvents(QueueName.DomainEvents, {
      connection: createQueueConnection(this.config),
      prefix: queuePrefix(this.config.QUEUE_PREFIX),
    });
    this.events.on('added', () => this.wakeAll());
    logConnectionErrors(this.events, 'Event stream wake-ups interrupted', this.logger);
  }

  /** Before the HTTP server drains, which would otherwise wait out every long-poll. */
  beforeApplicationShutdown(): void {
    this.closing = true;
    this.wakeAll();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.events?.close();
  }

  /** A slot, or undefined when EVENT_STREAM_MAX_WAITERS are held already. */
  hold(): WaitSlot | undefined {
    if (this.held >= this.config.EVENT_STREAM_MAX_WAITERS) return undefined;
    this.held++;
    let released = false;
    return {
      next: (ms) =>
        new Promise<boolean>((resolve) => {
          if (this.closing) return resolve(false);
          const wake = () => {
            clearTimeout(timer);
            this.sleepers.delete(wake);
            resolve(!this.closing);
          };
          const timer = setTimeout(wake, ms);
          this.sleepers.add(wake);
        }),
      release: () => {
        if (!released) this.held--;
        released = true;
      },
    };
  }

  private wakeAll(): void {
    for (const wake of [...this.sleepers]) wake();
  }
}
