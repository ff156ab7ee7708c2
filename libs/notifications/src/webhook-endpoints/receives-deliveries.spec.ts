import { receivesDeliveries } from './receives-deliveries';

describe('receivesDeliveries', () => {
  it('answers true only for an active endpoint that is not deleted', () => {
    const sut = receivesDeliveries;

    expect(sut({ status: 'ACTIVE', deletedAt: null })).toBe(true);
    expect(sut({ status: 'DISABLED', deletedAt: null })).toBe(false);
    expect(sut({ status: 'ACTIVE', deletedAt: new Date() })).toBe(false);
  });
});
