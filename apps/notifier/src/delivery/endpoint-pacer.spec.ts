import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { EndpointPacingState, WebhookEndpointRepository } from '@fincore/notifications';
import { loadConfig } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { EndpointPacer } from './endpoint-pacer';

/** Against the real Redis on localhost, under a prefix of its own; every key the pacer writes expires. */
describe('EndpointPacer', () => {
  const config = loadConfig({ ...process.env, QUEUE_PREFIX: `pacer-spec-${randomUUID()}` });
  let redis: Redis;
  let state: EndpointPacingState;
  let endpoints: jest.Mocked<WebhookEndpointRepository>;
  let sut: EndpointPacer;

  beforeAll(() => {
    redis = new Redis(config.REDIS_URL);
    endpoints = newDouble<WebhookEndpointRepository>();
    state = new EndpointPacingState(redis, config, endpoints);
    sut = new EndpointPacer(redis, state, endpoints);
  });
  afterAll(() => redis.quit());

  const limited = (rateLimit: number | null, pausedForMs = 0) => ({
    id: randomUUID(),
    rateLimit,
    pausedForMs,
  });
  /** The slot a waiting delivery holds, on Redis's clock: free of the jitter of local time. */
  const reservation = async (endpointId: string, deliveryId: string) =>
    Number(await redis.get(state.key(endpointId, 'reserved', deliveryId)));
  const waitAt = (decision: Awaited<ReturnType<EndpointPacer['pace']>>) => {
    if (decision.kind !== 'wait') throw new Error(`expected a wait, got ${decision.kind}`);
    return decision.at.getTime();
  };

  it('lets every delivery through to an endpoint without a limit, asking Redis nothing', async () => {
    const endpoint = limited(null);
    await sut.pause(endpoint.id, 60_000);
    for (let i = 0; i < 5; i++) expect(await sut.pace(endpoint, randomUUID())).toEqual({ kind: 'send' });
  });

  it('holds an endpoint back for the pause its attempt read from its row, limited or not', async () => {
    for (const endpoint of [limited(null, 5_000), limited(1, 5_000)]) {
      const before = Date.now();
      const at = waitAt(await sut.pace(endpoint, randomUUID()));
      expect(at).toBeGreaterThanOrEqual(before + 5_000);
      expect(await redis.get(state.key(endpoint.id, 'last'))).toBeNull();
    }
  });

  it('keeps the pause on the endpoint row too, where attempts read it', async () => {
    const endpoint = limited(null);
    await sut.pause(endpoint.id, 1_500.4);
    expect(endpoints.pauseFor).toHaveBeenCalledWith(endpoint.id, 1_500.4);
  });

  it('gives each waiting delivery its own slot, one interval apart, and keeps it when asked again', async () => {
    const endpoint = limited(1);
    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];

    expect(await sut.pace(endpoint, first)).toEqual({ kind: 'send' });
    waitAt(await sut.pace(endpoint, second));
    waitAt(await sut.pace(endpoint, third));
    const [secondSlot, thirdSlot] = [
      await reservation(endpoint.id, second),
      await reservation(endpoint.id, third),
    ];
    waitAt(await sut.pace(endpoint, second));

    expect(thirdSlot - secondSlot).toBe(1000);
    expect(await reservation(endpoint.id, second)).toBe(secondSlot);
  });

  it('sends a delivery late for its slot at once while the endpoint is free, ahead of later reservations', async () => {
    const endpoint = limited(10);
    const late = randomUUID();
    expect(await sut.pace(endpoint, randomUUID())).toEqual({ kind: 'send' });
    waitAt(await sut.pace(endpoint, late));
    const behind = Array.from({ length: 20 }, () => randomUUID());
    for (const id of behind) waitAt(await sut.pace(endpoint, id));
    const lastReserved = await reservation(endpoint.id, behind[behind.length - 1]);

    // Its worker wakes three intervals after its slot, and nothing was sent in between.
    await sleep(400);

    expect(await sut.pace(endpoint, late)).toEqual({ kind: 'send' });
    // A delivery new to the endpoint still queues behind the twenty reservations.
    const newcomer = randomUUID();
    waitAt(await sut.pace(endpoint, newcomer));
    expect(await reservation(endpoint.id, newcomer)).toBeGreaterThan(lastReserved);
  });

  it('holds back only the paused limited endpoint, and sends the reserved after the pause', async () => {
    const paused = limited(3);
    const pacedAndPaused = limited(1);
    const other = limited(3);
    const reserved = randomUUID();
    expect(await sut.pace(pacedAndPaused, randomUUID())).toEqual({ kind: 'send' });
    const reservedAt = waitAt(await sut.pace(pacedAndPaused, reserved));

    await sut.pause(paused.id, 60_000);
    await sut.pause(pacedAndPaused.id, 60_000);
    await sut.pause(paused.id, 1_000); // a shorter pause never cuts a longer one short

    expect(waitAt(await sut.pace(paused, randomUUID()))).toBeGreaterThan(reservedAt + 50_000);
    expect(waitAt(await sut.pace(pacedAndPaused, reserved))).toBeGreaterThan(reservedAt + 50_000);
    expect(await sut.pace(other, randomUUID())).toEqual({ kind: 'send' });
  });

  it('sends at once again after the pacing state of an endpoint is reset', async () => {
    const endpoint = limited(1);
    expect(await sut.pace(endpoint, randomUUID())).toEqual({ kind: 'send' });
    await sut.pause(endpoint.id, 60_000);

    await state.reset(endpoint.id);

    expect(await sut.pace(endpoint, randomUUID())).toEqual({ kind: 'send' });
    expect(endpoints.liftPause).toHaveBeenCalledWith(endpoint.id);
  });
});
