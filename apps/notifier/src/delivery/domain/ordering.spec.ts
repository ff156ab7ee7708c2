import { CHAIN_MAX_WAIT_MS, CHAIN_RECHECK_MS, recheckBehindHead, webhookEnvelope } from './ordering';

const now = new Date('2026-01-10T12:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('webhookEnvelope', () => {
  const event = {
    id: 'e-1',
    type: 'PERSON_UPDATED',
    tenantCode: 'ACME',
    occurredAt: now,
    correlationId: 'req-1',
    data: { personId: 'p-1', changedFields: ['lastName'] },
  };

  it('names the subject and the sequence of an ordered endpoint', () => {
    const sut = webhookEnvelope(event, 3);
    expect(sut).toEqual({
      id: 'e-1',
      type: 'PERSON_UPDATED',
      tenantCode: 'ACME',
      occurredAt: now.toISOString(),
      correlationId: 'req-1',
      subject: { type: 'person', id: 'p-1' },
      sequence: 3,
      data: event.data,
    });
  });

  it('has no sequence for an endpoint receiving in parallel', () => {
    expect(webhookEnvelope(event, null)).toMatchObject({
      subject: { type: 'person', id: 'p-1' },
      sequence: null,
    });
  });
});

describe('recheckBehindHead', () => {
  it('looks again just after the head is due, when it may have finished', () => {
    expect(recheckBehindHead(at(30_000), now)).toEqual(at(30_000 + CHAIN_RECHECK_MS));
  });

  it('looks again shortly when the head is due now or in flight', () => {
    expect(recheckBehindHead(at(-5000), now)).toEqual(at(CHAIN_RECHECK_MS));
    expect(recheckBehindHead(null, now)).toEqual(at(CHAIN_RECHECK_MS));
  });

  it('never sleeps longer than the cap, so a lost wake-up costs little', () => {
    expect(recheckBehindHead(at(5 * 3600_000), now)).toEqual(at(CHAIN_MAX_WAIT_MS));
  });
});
