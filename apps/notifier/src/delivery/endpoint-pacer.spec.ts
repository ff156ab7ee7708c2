import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { EndpointPacingState } from '@fincore/notifications';
import { loadConfig } from '@fincore/platform';
import { EndpointPacer } from './endpoint-pacer';

/** Against the real Redis on localhost, under a prefix of its own; every key the pacer writes expires. */
describe('EndpointPacer', () => {
  const config = loadConfig({ ...process.env, QUEUE_PREFIX: `pacer-spec-${randomUUID()}` });
  let redis: Redis;
  let state: EndpointPacingState;
  let sut: EndpointPacer;

  beforeAll(() => {
    redis = new Redis(config.REDIS_URL);
    state = new EndpointPacingState(redis, config);
    sut = new EndpointPacer(redis, state);
  });
  afterAll(() => redis.quit());

  const limited = (rateLimit: number | null) => ({ id: randomUUID(), rateLimit });
  const waitAt = (decision: Awaited<ReturnType<EndpointPacer['pace']>>) => {
    if (decision.kind !== 'wait') throw new Error(`expected a wait, got ${decision.kind}`);
    return decision.at.getTime();
  };

  it('lets every delivery through to an endpoint without a limit', async () => {
    const endpoint = limited(null);
    for (let i = 0; i < 5; i++) expect(await sut.pace(endpoint, randomUUID())).toEqual({ kind: 'send' });
  });

  it('gives each waiting delivery its own slot, one interval apart, and keeps it when asked again', async () => {
    const endpoint = limited(1);
    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];

    expect(await sut.pace(endpoint, first)).toEqual({ kind: 'send' });
    const secondAt = waitAt(await sut.pace(endpoint, second));
    const thirdAt = waitAt(await sut.pace(endpoint, third));
    const secondAgain = waitAt(await sut.pace(endpoint, second));

    // Slots are 1000 ms apart on Redis's clock; turned into local time each moves by the time its
    // answer took to come back, a few milliseconds on a busy machine.
    expect(Math.abs(thirdAt - secondAt - 1000)).toBeLessThan(100);
    expect(Math.abs(secondAgain - secondAt)).toBeLessThan(100);
  });

  it('sends a delivery late for its slot at once while the endpoint is free, ahead of later reservations', async () => {
    const endpoint = limited(10);
    const late = randomUUID();
    expect(await sut.pace(endpoint, randomUUID())).toEqual({ kind: 'send' });
    waitAt(await sut.pace(endpoint, late));
    for (let i = 0; i < 20; i++) waitAt(await sut.pace(endpoint, randomUUID()));

    // Its worker wakes three intervals after its slot, and nothing was sent in between.
    await sleep(400);

    expect(await sut.pace(endpoint, late)).toEqual({ kind: 'send' });
    // A delivery new to the endpoint still queues behind the twenty reservations (two seconds).
    expect(waitAt(await sut.pace(endpoint, randomUUID())) - Date.now()).toBeGreaterThan(1000);
  });

  it('holds back only the paused endpoint, limited or not, and sends the reserved after the pause', async () => {
    const paused = limited(null);
    const pacedAndPaused = limited(1);
    const other = limited(null);
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
  });
});
