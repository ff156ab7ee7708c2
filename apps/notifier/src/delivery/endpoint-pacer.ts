import { Inject, Injectable } from '@nestjs/common';
import { EndpointPacingState, WebhookEndpointRepository } from '@fincore/notifications';
import { REDIS, RedisClient, redisScript } from '@fincore/platform';
import { PaceDecision, paceDecision, slotIntervalMs } from './domain/endpoint-pacing';

/**
 * Per endpoint, one atomic script on Redis's clock (GCRA-like, with reservations):
 * - a send is allowed only `interval` after the last allowed send and not while the endpoint is
 *   paused, so the limit holds across every replica however late a job wakes;
 * - a delivery that must wait reserves the next free slot and keeps it while it sleeps, so a
 *   backlog drains in order with one wake-up per delivery rather than all of them at every slot;
 * - a reservation overtaken by a pause goes to the back of the line;
 * - a worker that wakes late for its reservation sends at once if the endpoint is free: on a busy
 *   notifier every holder is late, and sending each to the back of the line would leave the
 *   endpoint idle while its backlog kept moving back.
 * KEYS: next free slot, last send, paused until, this delivery's reservation (one hash tag: one
 * Cluster slot). ARGV: interval ms (0: unlimited, only pauses apply), how long a reservation is
 * kept past its time for a worker that wakes late. Answers {slot, now} in Redis milliseconds.
 */
const PACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local earliest = math.max(now, tonumber(redis.call('GET', KEYS[3]) or '0'))
if interval == 0 then return {earliest, now} end
earliest = math.max(earliest, tonumber(redis.call('GET', KEYS[2]) or '0') + interval)
local reserved = tonumber(redis.call('GET', KEYS[4]) or '-1')
local slot
if reserved >= 0 and earliest < reserved + interval then
  slot = math.max(reserved, earliest)
elseif reserved >= 0 and earliest <= now then
  slot = now
else
  slot = math.max(earliest, tonumber(redis.call('GET', KEYS[1]) or '0'))
  redis.call('SET', KEYS[1], slot + interval, 'PX', slot + interval - now + 1000)
end
if slot <= now then
  redis.call('SET', KEYS[2], now, 'PX', interval + 1000)
  redis.call('DEL', KEYS[4])
else
  redis.call('SET', KEYS[4], slot, 'PX', slot - now + tonumber(ARGV[2]))
end
return {slot, now}`;

/** Moves the pause to now + ARGV[1] ms unless a longer one runs. */
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pausedUntil = now + tonumber(ARGV[1])
if pausedUntil > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], pausedUntil, 'PX', ARGV[1])
end
return pausedUntil`;

/** A worker busy for this long past a reservation's time still finds it. */
const RESERVATION_KEPT_MS = 60_000;

/** What pacing needs of an endpoint, as its attempt read it: the limit and the pause left (ms, 0: none). */
export interface PacedEndpoint {
  id: string;
  rateLimit: number | null;
  pausedForMs: number;
}

/**
 * The per-endpoint delivery rate limit and Retry-After pause, shared by every notifier replica. The
 * pause is kept on the endpoint row too, which every attempt reads anyway: an endpoint without a
 * limit is paced from it alone, with no round trip to Redis.
 */
@Injectable()
export class EndpointPacer {
  private readonly paceScript: (...keysThenArgs: Array<string | number>) => Promise<[number, number]>;
  private readonly pauseScript: (key: string, pauseMs: number) => Promise<number>;

  constructor(
    @Inject(REDIS) redis: RedisClient,
    private readonly state: EndpointPacingState,
    private readonly endpoints: WebhookEndpointRepository,
  ) {
    this.paceScript = redisScript(redis, 'fincoreEndpointPace', 4, PACE);
    this.pauseScript = redisScript(redis, 'fincoreEndpointPause', 1, PAUSE);
  }

  /** Send now, or wait for the end of the pause, or for the slot this delivery now holds. */
  async pace(endpoint: PacedEndpoint, deliveryId: string): Promise<PaceDecision> {
    if (endpoint.pausedForMs > 0) return paceDecision(endpoint.pausedForMs, 0, Date.now());
    if (endpoint.rateLimit === null) return { kind: 'send' };
    const [slot, redisNow] = await this.paceScript(
      this.state.key(endpoint.id, 'next'),
      this.state.key(endpoint.id, 'last'),
      this.state.key(endpoint.id, 'paused'),
      this.state.key(endpoint.id, 'reserved', deliveryId),
      slotIntervalMs(endpoint.rateLimit),
      RESERVATION_KEPT_MS,
    );
    return paceDecision(slot, redisNow, Date.now());
  }

  /** Holds every delivery to the endpoint back for `pauseMs`; deliveries to other endpoints go on. */
  async pause(endpointId: string, pauseMs: number): Promise<void> {
    await Promise.all([
      this.pauseScript(this.state.key(endpointId, 'paused'), Math.ceil(pauseMs)),
      this.endpoints.pauseFor(endpointId, pauseMs),
    ]);
  }
}
